import DrawProtocol

/// A player in a room: a seated player or a spectator.
public struct Member: Sendable, Hashable {
    public let id: PlayerID
    public var name: String
    public var avatar: Avatar
    public var score = 0
    public var ready = false
    public var connected = true
    public var spectator = false
    /// Guessed the word in the current turn.
    public var guessed = false
    /// Set for a bot seat (`addBot`): its level. Bots are always ready and never host.
    public internal(set) var bot: BotLevel?
    /// The spectator state asked for, applied at the start of the next turn.
    var pendingSpectator: Bool?
    /// A screen that watches (`join` with `watch`, the `/tv` page): always a spectator,
    /// holding no seat, never host.
    public internal(set) var watching = false
    /// Join order: the longest-seated member (lowest) becomes host when the host leaves.
    public let order: Int
    public var disconnectedAt: Timestamp?
    /// The room's chat sequence when this member joined: earlier lines are not its history.
    public internal(set) var chatSince = 0

    init(id: PlayerID, name: String, order: Int, avatar: Avatar? = nil) {
        self.id = id
        self.name = name
        self.order = order
        self.avatar = avatar ?? .standard(for: id)
    }

    public var isBot: Bool { bot != nil }

    var view: PlayerView {
        PlayerView(id: id, name: name, score: score, ready: ready, connected: connected, guessed: guessed, spectator: spectator, avatar: avatar, bot: isBot, watching: watching)
    }
}
