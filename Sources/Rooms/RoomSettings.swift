/// A room's game settings, always within the protocol's ranges.
public struct RoomSettings: Sendable, Hashable, Codable {
    public var rounds = 3
    public var drawTimeSec = 80
    public var maxPlayers = 8
    public var wordChoices = 3
    public var hints = 2
    public var language = "en"
    public var customWords: [String] = []
    public var customOnly = false

    public init() {}

    public static let roundsRange = 1...10
    public static let drawTimeRange = 30...240
    public static let maxPlayersRange = 2...16
    public static let wordChoicesRange = 1...5
    public static let hintsRange = 0...5
    public static var supportedLanguages: Set<String> { WordLanguage.codes }

    /// The fields of `patch` outside their ranges, each with the value `applying` uses
    /// instead (`notice` `settings_adjusted`); empty when every field was taken as sent.
    public func adjustments(for patch: SettingsPatch) -> [AdjustedSetting] {
        var adjusted: [AdjustedSetting] = []
        func check(_ field: String, _ value: Int?, _ range: ClosedRange<Int>) {
            guard let value, !range.contains(value) else { return }
            adjusted.append(AdjustedSetting(field: field, value: .number(value.clamped(to: range))))
        }
        check("rounds", patch.rounds, Self.roundsRange)
        check("drawTimeSec", patch.drawTimeSec, Self.drawTimeRange)
        check("maxPlayers", patch.maxPlayers, Self.maxPlayersRange)
        check("wordChoices", patch.wordChoices, Self.wordChoicesRange)
        check("hints", patch.hints, Self.hintsRange)
        if let language = patch.language, !Self.supportedLanguages.contains(language) {
            adjusted.append(AdjustedSetting(field: "language", value: .text(applying(patch).language)))
        }
        return adjusted
    }

    /// Applies the fields a client sent, clamped to the allowed ranges; absent fields keep their value.
    public func applying(_ patch: SettingsPatch) -> RoomSettings {
        var next = self
        if let v = patch.rounds { next.rounds = v.clamped(to: Self.roundsRange) }
        if let v = patch.drawTimeSec { next.drawTimeSec = v.clamped(to: Self.drawTimeRange) }
        if let v = patch.maxPlayers { next.maxPlayers = v.clamped(to: Self.maxPlayersRange) }
        if let v = patch.wordChoices { next.wordChoices = v.clamped(to: Self.wordChoicesRange) }
        if let v = patch.hints { next.hints = v.clamped(to: Self.hintsRange) }
        // Only languages with a built-in word list are accepted; anything else keeps English.
        if let v = patch.language { next.language = Self.supportedLanguages.contains(v) ? v : "en" }
        if let v = patch.customWords { next.customWords = WordList.sanitize(v) }
        if let v = patch.customOnly { next.customOnly = v }
        return next
    }
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
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
