import DrawProtocol

/// The words a game offers its drawers, drawn without replacement.
///
/// Like drawing tiles from a bag: no word comes up again until every other word has been
/// drawn, then the bag is refilled and reshuffled. Offering the same word twice in a short
/// game is the quickest way to make it feel broken, and pure random choice does that often.
/// All randomness comes from the caller's generator, so a seeded game draws the same words.
public struct WordBag: Sendable {
    /// Every distinct word in the bag, in the order given.
    public let words: [String]
    /// The language code when `words` is exactly that built-in list, so a snapshot stores
    /// the code instead of the words.
    public internal(set) var list: String?
    /// Positions in `words` of the words left before the next refill; drawn from the end.
    /// Positions rather than the words themselves, so a room's snapshot copies and stores
    /// the bag cheaply (see `WordBag+Coding.swift`).
    var pending: [UInt16]

    /// - Parameter words: candidates; repeats (same `GuessNormalizer.normalize` form) and
    ///   words that normalise to nothing are dropped, keeping the first spelling.
    public init(words: [String], rng: inout some RandomNumberGenerator) {
        self.init(distinct: DistinctWords(words), rng: &rng)
    }

    init(distinct: DistinctWords, rng: inout some RandomNumberGenerator) {
        self.words = distinct.words
        pending = distinct.words.indices.map { UInt16($0) }
        rng.shuffle(&pending)
    }

    /// A bag's words are numbered with 16 bits. Rooms hold at most the English list plus
    /// `WordList.maxCustomWords`, far fewer.
    static let maxWords = Int(UInt16.max)

    init(words: [String], pending: [UInt16], list: String? = nil) {
        self.words = words
        self.pending = pending
        self.list = list
    }

    /// Number of distinct words.
    public var count: Int { words.count }
    /// Words still to come before the bag is refilled.
    public var remaining: Int { pending.count }

    /// Up to `count` distinct words (fewer only when the bag holds fewer distinct words).
    ///
    /// When the bag runs out mid-draw it is refilled, and the words already picked in this
    /// call are put at the bottom of the new bag, so one offer never shows a word twice and
    /// those words still come up once during the new cycle.
    public mutating func draw(_ count: Int, rng: inout some RandomNumberGenerator) -> [String] {
        let wanted = min(max(count, 0), words.count)
        var picked: [UInt16] = []
        picked.reserveCapacity(wanted)
        while picked.count < wanted {
            if pending.isEmpty { refill(excluding: picked, rng: &rng) }
            guard let word = pending.popLast() else { break }
            picked.append(word)
        }
        return picked.map { words[Int($0)] }
    }

    /// Up to `count` distinct words for which `isUsed` is false, in the bag's order; words
    /// it skips leave the current cycle (they were drawn already). Fewer than `count` only
    /// when fewer unused words exist; none when every word is used.
    public mutating func draw(_ count: Int, rng: inout some RandomNumberGenerator, skipping isUsed: (String) -> Bool) -> [String] {
        let wanted = min(max(count, 0), words.count)
        var picked: [UInt16] = []
        picked.reserveCapacity(wanted)
        // Two passes over the whole bag find every unused word, so this ends even when all are used.
        var budget = 2 * words.count + wanted
        while picked.count < wanted, budget > 0 {
            budget -= 1
            if pending.isEmpty { refill(excluding: picked, rng: &rng) }
            guard let word = pending.popLast() else { break }
            if picked.contains(word) || isUsed(words[Int(word)]) { continue }
            picked.append(word)
        }
        return picked.map { words[Int($0)] }
    }

    /// Whether some word is not used yet; stops at the first one.
    public func hasWord(where isFresh: (String) -> Bool) -> Bool { words.contains(where: isFresh) }

    /// Chooses the bag for a new game from the room's settings.
    ///
    /// `customOnly` uses only the host's custom words, provided at least one survives
    /// `WordList.sanitize`; with none it falls back to the language's list rather than making
    /// the game unplayable. Otherwise the custom words are added to the built-in list of
    /// `language` (English for a code without one; repeats of listed words are dropped).
    public static func forGame(
        language: String = WordLanguage.defaultCode, settingsCustomWords: [String], customOnly: Bool,
        rng: inout some RandomNumberGenerator
    ) -> WordBag {
        let custom = WordList.sanitize(settingsCustomWords)
        if customOnly, !custom.isEmpty {
            return WordBag(words: custom, rng: &rng)
        }
        let code = WordLanguage.codes.contains(language) ? language : WordLanguage.defaultCode
        // The list's words were told apart once per process; only custom words are
        // normalised here, so a game start costs no Unicode work per listed word.
        var distinct = WordList.distinctWords(for: code)
        distinct.add(custom)
        var bag = WordBag(distinct: distinct, rng: &rng)
        // Named by its code in snapshots only when it holds exactly that list.
        if custom.isEmpty, bag.words.count == WordList.words(for: code).count { bag.list = code }
        return bag
    }

    private mutating func refill(excluding picked: [UInt16], rng: inout some RandomNumberGenerator) {
        let held = Set(picked)
        var fresh = words.indices.map { UInt16($0) }.filter { !held.contains($0) }
        rng.shuffle(&fresh)
        var deferred = picked
        rng.shuffle(&deferred)
        // Drawn from the end, so the words already offered in this call go to the front (last out).
        pending = deferred + fresh
    }
}
