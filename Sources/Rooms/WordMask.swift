import DrawProtocol

/// What guessers see of the word: blanks for letters, with hint letters filled in over time.
///
/// Format (protocol section 4, "Mask"): every letter or digit is `_` or, once revealed,
/// the word's own character in its original case; any other character (hyphen,
/// apostrophe) is shown as it is; characters are separated by one space and words by
/// three, so "ice cream" starts as `_ _ _   _ _ _ _ _`. The spacing keeps blanks
/// countable in a proportional font.
public struct WordMask: Sendable, Equatable {
    /// The word being masked.
    public let word: String
    /// Indices into `Array(word)` shown as their letter. Only indices in `letterPositions` matter.
    public var revealed: Set<Int>
    /// Indices into `Array(word)` of the letters and digits: the characters hints can reveal.
    public private(set) var letterPositions: [Int]

    private let characters: [Character]

    /// A mask with nothing revealed yet, as sent with `turn`.
    public init(word: String) {
        self.word = word
        let characters = Array(word)
        self.characters = characters
        letterPositions = characters.indices.filter { Self.isMaskable(characters[$0]) }
        revealed = []
    }

    /// Hints never give away more than half the letters (rounded down), so a word of one
    /// letter is never revealed and the guessers always have work left.
    public var maxReveals: Int { letterPositions.count / 2 }

    /// How many letters are currently revealed.
    public var revealedCount: Int { letterPositions.count(where: { revealed.contains($0) }) }

    /// The mask as sent in `turn` and `hint` messages.
    public func rendered() -> String {
        var output = ""
        var needsSeparator = false
        var pendingWordBreak = false
        for (index, character) in characters.enumerated() {
            if character.isWhitespace {
                // Runs of spaces, and leading or trailing ones, still give a single word break.
                pendingWordBreak = needsSeparator
                continue
            }
            if needsSeparator { output += pendingWordBreak ? "   " : " " }
            pendingWordBreak = false
            needsSeparator = true
            if Self.isMaskable(character), !revealed.contains(index) {
                output.append("_")
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// The fully revealed word in mask format, e.g. for a turn-end display.
    public func renderedFully() -> String {
        var copy = self
        copy.revealed = Set(letterPositions)
        return copy.rendered()
    }

    /// Reveals one more random unrevealed letter, unless `maxReveals` are already shown.
    /// Returns whether a letter was revealed (the caller sends a `hint` only then).
    @discardableResult
    public mutating func reveal(using rng: inout some RandomNumberGenerator) -> Bool {
        guard revealedCount < maxReveals else { return false }
        let hidden = letterPositions.filter { !revealed.contains($0) }
        guard !hidden.isEmpty else { return false }
        revealed.insert(hidden[rng.uniformIndex(below: hidden.count)])
        return true
    }

    /// Letters and digits are hidden; punctuation stays visible as a free clue to the shape.
    static func isMaskable(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }
}
