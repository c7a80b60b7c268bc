// The small payloads of `ServerEvent` cases. Like every decoded type here they are read
// leniently: unknown fields are ignored (protocol section 1) and an optional field the
// server leaves out takes its documented default.

/// The `welcome` answer to `hello`.
public struct WelcomeInfo: Sendable, Hashable {
    public var playerID: String
    /// The secret that resumes this player; keep it.
    public var token: String
    public var resumed: Bool
    public var name: String
    public var avatar: PlayerAvatar?
}

/// An `error` message.
public struct ServerError: Sendable, Hashable, Error {
    /// One of the protocol's codes (`room_not_found`, `not_host`, ...).
    public var code: String
    public var message: String
    /// The `t` of the message that caused it, `"binary"` for a drawing frame.
    public var ref: String
    /// With `server_busy`: when to try again.
    public var retryAfterMs: Int?
}

/// A line of `gameEnd.ranking`.
public struct RankingEntry: Sendable, Hashable {
    public var id: String
    public var name: String
    public var score: Int
    public var place: Int
    public var avatar: PlayerAvatar?
}

/// A `chat` line (live or in `chatHistory`).
public struct ChatEntry: Sendable, Hashable {
    public var from: String
    public var name: String
    public var text: String
}

/// `turnEnd.drawing`: where the finished drawing can be fetched.
public struct DrawingLinks: Sendable, Hashable {
    public var id: String
    public var png: String
    public var timelapse: String
}

/// The payload of `turnEnd`.
public struct TurnEndInfo: Sendable, Hashable {
    public var word: String
    /// `time`, `allGuessed`, `skipped` or `drawerLeft`.
    public var reason: String
    /// Points earned this turn, by player id.
    public var scores: [String: Int]
    public var likes: Int
    public var dislikes: Int
    public var drawing: DrawingLinks?
}
