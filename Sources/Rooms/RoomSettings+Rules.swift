import DrawProtocol

extension RoomSettings {
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
        check("writeTimeSec", patch.writeTimeSec, Self.writeTimeRange)
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
        if let v = patch.streamer { next.streamer = v }
        if let v = patch.mode { next.mode = v }
        if let v = patch.writeTimeSec { next.writeTimeSec = v.clamped(to: Self.writeTimeRange) }
        return next
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
