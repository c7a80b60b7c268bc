import DrawProtocol

/// What the session's last `welcome` said (`ServerMessage.welcome`'s fields).
public struct WelcomeInfo: Sendable, Hashable {
    public var playerID: PlayerID
    /// The secret that resumes this player; keep it.
    public var token: String
    public var resumed: Bool
    public var name: String
    /// Nil when the server sent none (the player has the standard avatar for its id).
    public var avatar: Avatar?

    public init(playerID: PlayerID, token: String, resumed: Bool, name: String, avatar: Avatar? = nil) {
        self.playerID = playerID
        self.token = token
        self.resumed = resumed
        self.name = name
        self.avatar = avatar
    }
}
