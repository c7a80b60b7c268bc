import DrawProtocol
import Testing
import Rooms

struct WordMaskTests {
    @Test func hiddenMaskFormats() {
        #expect(WordMask(word: "cat").rendered() == "_ _ _")
        #expect(WordMask(word: "ice cream").rendered() == "_ _ _   _ _ _ _ _")
        #expect(WordMask(word: "t-rex").rendered() == "_ - _ _ _")
        #expect(WordMask(word: "jack-o-lantern").rendered() == "_ _ _ _ - _ - _ _ _ _ _ _ _")
        #expect(WordMask(word: "it's").rendered() == "_ _ ' _")
        #expect(WordMask(word: "R2D2").rendered() == "_ _ _ _")
        #expect(WordMask(word: "message in a bottle").rendered() == "_ _ _ _ _ _ _   _ _   _   _ _ _ _ _ _")
        #expect(WordMask(word: "a").rendered() == "_")
        #expect(WordMask(word: "").rendered() == "")
    }

    @Test func extraSpacesGiveOneWordBreak() {
        #expect(WordMask(word: " ice  cream ").rendered() == "_ _ _   _ _ _ _ _")
    }

    @Test func letterPositionsSkipSpacesAndPunctuation() {
        let mask = WordMask(word: "t-rex run")
        #expect(mask.letterPositions == [0, 2, 3, 4, 6, 7, 8])
        #expect(mask.maxReveals == 3)
        #expect(WordMask(word: "a").maxReveals == 0)
        #expect(WordMask(word: "ab").maxReveals == 1)
        #expect(WordMask(word: "abcde").maxReveals == 2)
    }

    @Test func revealedLettersKeepOriginalCase() {
        var mask = WordMask(word: "Ice Cream")
        mask.revealed = [0, 6]
        #expect(mask.rendered() == "I _ _   _ _ e _ _")
        #expect(mask.renderedFully() == "I c e   C r e a m")
        #expect(mask.revealedCount == 2)
    }

    @Test func revealStopsAtHalfTheLetters() {
        var rng = SeededRandom(seed: 11)
        var mask = WordMask(word: "ice cream")  // 8 letters: at most 4 reveals
        var reveals = 0
        while mask.reveal(using: &rng) { reveals += 1 }
        #expect(reveals == 4)
        #expect(mask.revealedCount == 4)
        #expect(mask.revealed.isSubset(of: Set(mask.letterPositions)))
        #expect(mask.rendered().count(where: { $0 == "_" }) == 4)
        #expect(mask.reveal(using: &rng) == false)
    }

    @Test func oneAndTwoLetterWords() {
        var rng = SeededRandom(seed: 2)
        var one = WordMask(word: "a")
        #expect(one.reveal(using: &rng) == false)
        #expect(one.rendered() == "_")
        var two = WordMask(word: "ox")
        #expect(two.reveal(using: &rng) == true)
        #expect(two.reveal(using: &rng) == false)
        #expect(two.rendered() == "o _" || two.rendered() == "_ x")
    }

    @Test func punctuationIsNeverRevealedOrCounted() {
        var rng = SeededRandom(seed: 3)
        var mask = WordMask(word: "x-ray")  // 4 letters
        #expect(mask.maxReveals == 2)
        while mask.reveal(using: &rng) {}
        #expect(!mask.revealed.contains(1))
        #expect(mask.rendered().filter { $0 == "_" }.count == 2)
    }

    @Test func revealIsDeterministicForASeed() {
        func run() -> String {
            var rng = SeededRandom(seed: 77)
            var mask = WordMask(word: "watermelon")
            mask.reveal(using: &rng)
            mask.reveal(using: &rng)
            return mask.rendered()
        }
        #expect(run() == run())
    }
}
