import DrawProtocol
import Rooms

/// Where moderators' bans and players' gallery settings are kept, so that a restart keeps
/// them and, on a shared store, every node honours them (docs/PROTOCOL.md sections 10.2
/// and 10.5). The SQLite database and the PostgreSQL store both conform; without a store
/// `Moderation` keeps them in memory only.
protocol ModerationArchive: Sendable {
    /// Bans `player` until `untilMs` (ms since 1970).
    func storeBan(_ player: PlayerID, untilMs: Int64) async throws
    /// The player's gallery setting (`gallery` message).
    func storeListed(_ listed: Bool, for player: PlayerID) async throws
    /// Bans and gallery settings changed at or after `sinceMs` (everything with 0): what a
    /// node loads at start-up, and what a node on a shared store polls for.
    func moderationChanges(sinceMs: Int64) async throws -> ModerationChanges
}

/// Bans and gallery settings as a store returns them.
struct ModerationChanges: Sendable, Equatable {
    /// Player → when its ban ends (ms since 1970); ended bans included.
    var bans: [PlayerID: Int64] = [:]
    /// Player → listed on the public gallery.
    var listed: [PlayerID: Bool] = [:]
}
