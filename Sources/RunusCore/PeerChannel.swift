/// Daemons that share one database tell each other what changed (docs/decisions/0541-replicas.md):
/// which races' logs grew (their watchers elsewhere catch up), and that a model reload was
/// asked of one of them (all reload). The database stays the source of truth: a message only
/// says where to look, so a lost one costs time (the race clock catches every room up once a
/// second), never data.
public struct PeerMessage: Sendable, Equatable {
    /// Races whose log grew.
    public var races: [String]
    /// Every daemon reloads its model.
    public var reload: Bool
    /// The channel was down and is back: messages may have been missed; catch everything up.
    public var resync: Bool
    /// Runners deleted (`users.delete`): every daemon's rooms forget them (record 0553).
    public var forgotten: [UserID]

    public init(races: [String] = [], reload: Bool = false, resync: Bool = false, forgotten: [UserID] = []) {
        self.races = races; self.reload = reload; self.resync = resync; self.forgotten = forgotten
    }
}

/// The way a daemon's messages reach the other daemons on its database; nil for a store only
/// one daemon serves (SQLite).
public protocol PeerChannel: Sendable {
    /// Starts delivering other daemons' messages to `receive` (on the channel's own thread).
    func start(_ receive: @escaping @Sendable (PeerMessage) -> Void) throws
    /// Says that these races' logs grew; coalesced with others before it is sent.
    func announce(races: [String])
    /// Says that every daemon should reload its model.
    func announceReload()
    /// Says that these runners were deleted: every daemon's rooms forget them (record 0553).
    func announceForgotten(users: [UserID])
    /// Stops both directions (the daemon is stopping).
    func stop()
}
