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

/// A `chat` line (live or in `chatHistory`), or in `chatHistory` a game event.
public struct ChatEntry: Sendable, Hashable {
    /// The author; for `guessed` and `passed` the player the event is about.
    public var from: String
    public var name: String
    /// The line; for `close` the guess.
    public var text: String
    /// Nil for a chat line; `guessed`, `close`, `reveal` or `passed` for a game event.
    public var kind: String? = nil
    /// A `reveal`'s word and its turn's end reason.
    public var word: String? = nil
    public var reason: String? = nil
}

/// A drawing of `gameDrawings`: a finished turn of the current game.
public struct GameDrawingInfo: Sendable, Hashable {
    public var links: DrawingLinks
    public var word: String
    /// The drawer's player id and name.
    public var drawer: String
    public var name: String
    public var round: Int
}

/// A `notice`: `code` and the fields that code carries.
public struct NoticeInfo: Sendable, Hashable {
    /// `bot_passed`, `slow_down`, `settings_adjusted`, or a newer one.
    public var code: String
    /// `bot_passed`: the bot.
    public var playerID: String?
    public var name: String?
    /// `slow_down`: when the held message goes.
    public var retryMs: Int?
    /// `settings_adjusted`: each field and the value used.
    public var fields: [String: WireJSON]
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
