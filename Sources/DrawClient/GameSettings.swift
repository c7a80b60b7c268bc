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
