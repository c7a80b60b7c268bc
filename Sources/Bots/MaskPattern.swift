import DrawProtocol
import Rooms

/// Which words fit a mask as guessers see it (`_ _ a   _ _`): same letters and breaks,
/// and every revealed letter in its place.
enum MaskPattern {
    static func fits(_ word: String, mask: String) -> Bool {
        let full = Array(WordMask(word: word).renderedFully())
        let shown = Array(mask)
        guard full.count == shown.count else { return false }
        for (have, want) in zip(full, shown) where want != "_" {
            guard have.lowercased() == want.lowercased() else { return false }
        }
        // A blank must stand for a letter or digit, not for punctuation the mask shows.
        for (have, want) in zip(full, shown) where want == "_" {
            guard have.isLetter || have.isNumber else { return false }
        }
        return true
    }

    /// Levenshtein distance of the normalised forms, stopping early past `limit`.
    static func distance(_ a: String, _ b: String, limit: Int = 2) -> Int {
        let x = Array(GuessNormalizer.normalize(a)), y = Array(GuessNormalizer.normalize(b))
        guard abs(x.count - y.count) <= limit else { return limit + 1 }
        var previous = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return x.isEmpty ? y.count : previous[y.count]
    }
}
