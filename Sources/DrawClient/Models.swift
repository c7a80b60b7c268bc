/// Payload types of the messages, decoded leniently: unknown fields are ignored (protocol
/// section 1), and an optional field the server leaves out takes its documented default.

/// A player's avatar (docs/PROTOCOL.md section 8.2); the server only stores and echoes it.
public struct PlayerAvatar: Sendable, Hashable {
    public var color: Int
    public var eyes: Int
    public var mouth: Int
    public var accessory: Int

    public init(color: Int, eyes: Int, mouth: Int, accessory: Int = 0) {
        self.color = color
        self.eyes = eyes
        self.mouth = mouth
        self.accessory = accessory
    }

    init?(_ json: WireJSON?) {
        guard let color = json?["color"]?.intValue, let eyes = json?["eyes"]?.intValue,
              let mouth = json?["mouth"]?.intValue, let accessory = json?["accessory"]?.intValue
        else { return nil }
        self.init(color: color, eyes: eyes, mouth: mouth, accessory: accessory)
    }

    var json: WireJSON {
        ["color": .number(Double(color)), "eyes": .number(Double(eyes)),
         "mouth": .number(Double(mouth)), "accessory": .number(Double(accessory))]
    }
}

/// Room settings. In a command every nil field is left out (the server keeps or defaults
/// it); in a `room` message the server echoes every field, clamped.
public struct GameSettings: Sendable, Hashable {
    public var rounds: Int?
    public var drawTimeSec: Int?
    public var maxPlayers: Int?
    public var wordChoices: Int?
    public var hints: Int?
    public var language: String?
    public var customWords: [String]?
    public var customOnly: Bool?
    /// Server to client only: how many custom words the room uses.
    public var customWordCount: Int?

    public init(
        rounds: Int? = nil, drawTimeSec: Int? = nil, maxPlayers: Int? = nil, wordChoices: Int? = nil,
        hints: Int? = nil, language: String? = nil, customWords: [String]? = nil, customOnly: Bool? = nil
    ) {
        self.rounds = rounds
        self.drawTimeSec = drawTimeSec
        self.maxPlayers = maxPlayers
        self.wordChoices = wordChoices
        self.hints = hints
        self.language = language
        self.customWords = customWords
        self.customOnly = customOnly
    }

    init(_ json: WireJSON?) {
        rounds = json?["rounds"]?.intValue
        drawTimeSec = json?["drawTimeSec"]?.intValue
        maxPlayers = json?["maxPlayers"]?.intValue
        wordChoices = json?["wordChoices"]?.intValue
        hints = json?["hints"]?.intValue
        language = json?["language"]?.stringValue
        customWords = json?["customWords"]?.arrayValue?.compactMap(\.stringValue)
        customOnly = json?["customOnly"]?.boolValue
        customWordCount = json?["customWordCount"]?.intValue
    }

    var json: WireJSON {
        var fields: [String: WireJSON] = [:]
        if let rounds { fields["rounds"] = .number(Double(rounds)) }
        if let drawTimeSec { fields["drawTimeSec"] = .number(Double(drawTimeSec)) }
        if let maxPlayers { fields["maxPlayers"] = .number(Double(maxPlayers)) }
        if let wordChoices { fields["wordChoices"] = .number(Double(wordChoices)) }
        if let hints { fields["hints"] = .number(Double(hints)) }
        if let language { fields["language"] = .string(language) }
        if let customWords { fields["customWords"] = .array(customWords.map(WireJSON.string)) }
        if let customOnly { fields["customOnly"] = .bool(customOnly) }
        return .object(fields)
    }
}

/// A player entry (`room.players[]`, `joined.player`).
public struct PlayerInfo: Sendable, Hashable {
    public var id: String
    public var name: String
    public var score: Int
    public var ready: Bool
    public var connected: Bool
    public var guessed: Bool
    public var spectator: Bool
    public var avatar: PlayerAvatar?
    /// Every field as sent, for additions this library does not model (e.g. `bot`).
    public var fields: [String: WireJSON]

    init?(_ json: WireJSON?) {
        guard let fields = json?.objectValue, let id = fields["id"]?.stringValue else { return nil }
        self.id = id
        name = fields["name"]?.stringValue ?? ""
        score = fields["score"]?.intValue ?? 0
        ready = fields["ready"]?.boolValue ?? false
        connected = fields["connected"]?.boolValue ?? true
        guessed = fields["guessed"]?.boolValue ?? false
        spectator = fields["spectator"]?.boolValue ?? false
        avatar = PlayerAvatar(fields["avatar"])
        self.fields = fields
    }
}

/// An entry of the public rooms list (`RoomSummary` in the protocol).
public struct LobbyRoom: Sendable, Hashable {
    public var code: String
    public var name: String
    public var isPublic: Bool
    public var players: Int
    public var maxPlayers: Int
    public var phase: String

    init?(_ json: WireJSON?) {
        guard let code = json?["code"]?.stringValue else { return nil }
        self.code = code
        name = json?["name"]?.stringValue ?? ""
        isPublic = json?["public"]?.boolValue ?? false
        players = json?["players"]?.intValue ?? 0
        maxPlayers = json?["maxPlayers"]?.intValue ?? 0
        phase = json?["phase"]?.stringValue ?? ""
    }
}

/// The full room state of a `room` message.
public struct RoomInfo: Sendable, Hashable {
    public var code: String
    public var name: String
    public var isPublic: Bool
    public var host: String?
    public var settings: GameSettings
    /// `lobby`, `choosing`, `drawing`, `turnEnd` or `gameEnd`.
    public var phase: String
    public var round: Int
    public var rounds: Int
    public var drawer: String?
    public var mask: String?
    /// Sent to the drawer only.
    public var word: String?
    public var remainingMs: Int
    public var players: [PlayerInfo]
    public var canvasWidth: Int
    public var canvasHeight: Int
    /// Every field as sent, for additions this library does not model.
    public var fields: [String: WireJSON]

    init?(_ json: WireJSON) {
        guard let fields = json.objectValue, let code = fields["code"]?.stringValue else { return nil }
        self.code = code
        name = fields["name"]?.stringValue ?? ""
        isPublic = fields["public"]?.boolValue ?? false
        host = fields["host"]?.stringValue
        settings = GameSettings(fields["settings"])
        phase = fields["phase"]?.stringValue ?? "lobby"
        round = fields["round"]?.intValue ?? 0
        rounds = fields["rounds"]?.intValue ?? 0
        drawer = fields["drawer"]?.stringValue
        mask = fields["mask"]?.stringValue
        word = fields["word"]?.stringValue
        remainingMs = fields["remainingMs"]?.intValue ?? 0
        players = fields["players"]?.arrayValue?.compactMap { PlayerInfo($0) } ?? []
        canvasWidth = fields["canvas"]?["w"]?.intValue ?? 800
        canvasHeight = fields["canvas"]?["h"]?.intValue ?? 600
        self.fields = fields
    }
}

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
