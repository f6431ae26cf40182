/// Pushed lines: the daemon sends unsolicited lines (race events) to connections by id.
extension LineServer {
    /// Queues `line` (ending with "\n") for connection `id` on the loop that owns it. Returns
    /// false when the connection is gone. Thread-safe; never blocks on the peer: a slow reader
    /// is closed once it falls far behind (record 0516), so one watcher cannot delay others.
    @discardableResult
    public func push(connectionID id: UInt64, line: [UInt8]) -> Bool {
        guard let index = connectionLoopIndex.withLock({ $0[id] }) else { return false }
        let context = loops[index]
        context.loop.execute { context.push(line, to: id) }
        return true
    }

    /// Calls `handler` with the id of every connection that closes (on its loop's thread; keep
    /// it short). Set before `start()`.
    public func onConnectionClosed(_ handler: @escaping @Sendable (UInt64) -> Void) {
        closedHandler.withLock { $0 = HandlerBox(handler) }
    }
}
