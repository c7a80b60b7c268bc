/// Which game a room plays (issue 36): classic draw-and-guess, or the telephone game.
public enum GameMode: String, Sendable, Hashable, Codable, CaseIterable {
    case classic
    case telephone
}

/// A room's game settings, always within the protocol's ranges.
public struct RoomSettings: Sendable, Hashable, Codable {
    public var rounds = 3
    public var drawTimeSec = 80
    public var maxPlayers = 8
    public var wordChoices = 3
    public var hints = 2
    /// ISO 639-1 code of the word list; "en" unless the server has a list for another.
    public var language = "en"
    public var customWords: [String] = []
    public var customOnly = false
    /// Streamer mode (issue 36): the room is never listed or offered to quick play, and
    /// clients keep its code, its invite link and players' ids off the screen.
    public var streamer = false
    /// `classic` or `telephone`; in telephone mode `drawTimeSec` is each draw step's length
    /// and `rounds`, `wordChoices` and `hints` do not apply.
    public var mode = GameMode.classic
    /// The length of a telephone game's write and describe steps.
    public var writeTimeSec = 40

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case rounds, drawTimeSec, maxPlayers, wordChoices, hints, language, customWords, customOnly, streamer, mode, writeTimeSec
    }

    /// Decodes stored settings; a field added since they were stored keeps its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rounds = try c.decode(Int.self, forKey: .rounds)
        drawTimeSec = try c.decode(Int.self, forKey: .drawTimeSec)
        maxPlayers = try c.decode(Int.self, forKey: .maxPlayers)
        wordChoices = try c.decode(Int.self, forKey: .wordChoices)
        hints = try c.decode(Int.self, forKey: .hints)
        language = try c.decodeIfPresent(String.self, forKey: .language) ?? "en"
        customWords = try c.decodeIfPresent([String].self, forKey: .customWords) ?? []
        customOnly = try c.decodeIfPresent(Bool.self, forKey: .customOnly) ?? false
        streamer = try c.decodeIfPresent(Bool.self, forKey: .streamer) ?? false
        mode = try c.decodeIfPresent(GameMode.self, forKey: .mode) ?? .classic
        writeTimeSec = try c.decodeIfPresent(Int.self, forKey: .writeTimeSec) ?? 40
    }

    public static let roundsRange = 1...10
    public static let drawTimeRange = 30...240
    /// Up to 50 seats (issue 36): the contract's 2..16, widened as a documented addition.
    public static let maxPlayersRange = 2...50
    public static let wordChoicesRange = 1...5
    public static let hintsRange = 0...5
    public static let writeTimeRange = 10...120
}

/// The optional fields of a `settings` object as a client sent them, before clamping.
public struct SettingsPatch: Sendable, Hashable {
    public var rounds: Int?
    public var drawTimeSec: Int?
    public var maxPlayers: Int?
    public var wordChoices: Int?
    public var hints: Int?
    public var language: String?
    public var customWords: [String]?
    public var customOnly: Bool?
    public var streamer: Bool?
    public var mode: GameMode?
    public var writeTimeSec: Int?

    public init(
        rounds: Int? = nil, drawTimeSec: Int? = nil, maxPlayers: Int? = nil, wordChoices: Int? = nil,
        hints: Int? = nil, language: String? = nil, customWords: [String]? = nil, customOnly: Bool? = nil,
        streamer: Bool? = nil, mode: GameMode? = nil, writeTimeSec: Int? = nil
    ) {
        self.rounds = rounds
        self.drawTimeSec = drawTimeSec
        self.maxPlayers = maxPlayers
        self.wordChoices = wordChoices
        self.hints = hints
        self.language = language
        self.customWords = customWords
        self.customOnly = customOnly
        self.streamer = streamer
        self.mode = mode
        self.writeTimeSec = writeTimeSec
    }
}
