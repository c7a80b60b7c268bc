import DrawProtocol

/// Words told apart by `GuessNormalizer.normalize`: a repeat (same normal form) and a word
/// that normalises to nothing are dropped, keeping the first spelling, up to
/// `WordBag.maxWords`. The normal forms are kept, so more words can be added to a copy
/// without normalising the first ones again.
struct DistinctWords: Sendable {
    private(set) var words: [String] = []
    private var keys: Set<String> = []

    init(_ candidates: [String] = []) {
        add(candidates)
    }

    mutating func add(_ candidates: [String]) {
        for word in candidates where words.count < WordBag.maxWords {
            let key = GuessNormalizer.normalize(word)
            guard !key.isEmpty, keys.insert(key).inserted else { continue }
            words.append(word)
        }
    }
}
