/// A player in a room: a seated player or a spectator.
public struct Member: Sendable, Hashable {
    public let id: PlayerID
    public var name: String
    public var score = 0
    public var ready = false
    public var connected = true
    public var spectator = false
    /// Guessed the word in the current turn.
    public var guessed = false
    /// The spectator state asked for, applied at the start of the next turn.
    var pendingSpectator: Bool?
    /// Join order: the longest-seated member (lowest) becomes host when the host leaves.
    public let order: Int
    public var disconnectedAt: Timestamp?

    init(id: PlayerID, name: String, order: Int) {
        self.id = id
        self.name = name
        self.order = order
    }

    var view: PlayerView {
        PlayerView(id: id, name: name, score: score, ready: ready, connected: connected, guessed: guessed, spectator: spectator)
    }
}
