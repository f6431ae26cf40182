import Synchronization
import Server

/// Sends unsolicited lines to a connection (the server implements it; tests may fake it).
public protocol LinePusher: Sendable {
    /// Queues `line` (without the newline) for the connection; false when it is gone.
    @discardableResult
    func push(connectionID: UInt64, line: [UInt8]) -> Bool
}

/// Pushes race events through the running server.
public final class ServerPusher: LinePusher {
    private let server = Mutex<LineServer?>(nil)
    public init() {}
    public func attach(_ server: LineServer) { self.server.withLock { $0 = server } }
    public func push(connectionID: UInt64, line: [UInt8]) -> Bool {
        server.withLock { $0 }?.push(connectionID: connectionID, line: line) ?? false
    }
}
