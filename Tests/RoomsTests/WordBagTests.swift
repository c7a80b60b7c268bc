import DrawProtocol
import Foundation
import Testing
import Rooms

struct WordBagTests {
    @Test func englishListLoads() {
        let words = WordList.english
        #expect(words.count >= 2000)
        #expect(Set(words).count == words.count)
        #expect(Set(words.map(GuessNormalizer.normalize)).count == words.count)
        for word in words {
            #expect(!word.isEmpty)
            #expect(word.first?.isWhitespace == false && word.last?.isWhitespace == false)
            #expect(!word.hasPrefix("#"))
            #expect(word == word.lowercased())
            #expect(word.count <= WordList.maxWordLength)
        }
        #expect(words.contains("ice cream"))
        #expect(words.contains("t-rex"))
    }

    @Test func parseSkipsCommentsBlanksAndRepeats() {
        let text = "# header\n\n  cat  \nhot   dog\r\ncat\nCat\n# dog\nT-Rex\ntrex\n\t\n"
        #expect(WordList.parse(text) == ["cat", "hot dog", "T-Rex"])
    }

    @Test func sanitizeCustomWords() {
        let input = [
            "  Pizza ", "pizza", "PIZZA!", "  ", "", "hot \t  dog", "12345", "a-b",
            String(repeating: "x", count: 31), String(repeating: "y", count: 30), "crème", "creme",
            "zero\u{200B}width", "new\nline",
        ]
        #expect(WordList.sanitize(input) == [
            "Pizza", "hot dog", "a-b", String(repeating: "y", count: 30), "crème", "zerowidth", "new line",
        ])
    }

    @Test func sanitizeKeepsAtMost500() {
        let many = (0..<800).map { "word\($0)" }
        let cleaned = WordList.sanitize(many)
        #expect(cleaned.count == 500)
        #expect(cleaned.first == "word0" && cleaned.last == "word499")
    }

    @Test func noRepeatBeforeTheBagIsEmpty() {
        var rng = SeededRandom(seed: 1)
        let words = (0..<20).map { "w\($0)" }
        var bag = WordBag(words: words, rng: &rng)
        var drawn: [String] = []
        for _ in 0..<6 { drawn += bag.draw(3, rng: &rng) }
        // 18 words drawn, all distinct; 2 remain.
        #expect(Set(drawn).count == 18)
        #expect(bag.remaining == 2)
        // The next draw crosses the refill: still three distinct words.
        let crossing = bag.draw(3, rng: &rng)
        #expect(Set(crossing).count == 3)
        #expect(Set(drawn + crossing.prefix(2)) == Set(words))
    }

    @Test func everyWordOncePerCycle() {
        var rng = SeededRandom(seed: 9)
        let words = (0..<10).map { "w\($0)" }
        var bag = WordBag(words: words, rng: &rng)
        for _ in 0..<5 {
            var cycle: [String] = []
            for _ in 0..<5 { cycle += bag.draw(2, rng: &rng) }
            #expect(cycle.sorted() == words.sorted())
        }
    }

    @Test func drawReturnsDistinctWordsEvenAcrossRefill() {
        var rng = SeededRandom(seed: 4)
        var bag = WordBag(words: ["a", "b", "c", "d"], rng: &rng)
        for _ in 0..<50 {
            let offer = bag.draw(3, rng: &rng)
            #expect(offer.count == 3)
            #expect(Set(offer).count == 3)
        }
    }

    @Test func fewerWordsThanRequested() {
        var rng = SeededRandom(seed: 4)
        var bag = WordBag(words: ["a", "b", "A", "b "], rng: &rng)
        #expect(bag.count == 2)
        for _ in 0..<5 { #expect(Set(bag.draw(5, rng: &rng)) == ["a", "b"]) }
        #expect(bag.draw(0, rng: &rng).isEmpty)
        #expect(bag.draw(-1, rng: &rng).isEmpty)
        var empty = WordBag(words: [], rng: &rng)
        #expect(empty.draw(3, rng: &rng).isEmpty)
    }

    @Test func deterministicUnderASeed() {
        func run(_ seed: UInt64) -> [[String]] {
            var rng = SeededRandom(seed: seed)
            var bag = WordBag(words: WordList.english, rng: &rng)
            return (0..<10).map { _ in bag.draw(3, rng: &rng) }
        }
        #expect(run(123) == run(123))
        #expect(run(123) != run(124))
    }

    @Test func forGameChoosesTheList() {
        var rng = SeededRandom(seed: 8)
        let customOnly = WordBag.forGame(settingsCustomWords: ["Moon Cake", "Kite ", "kite"], customOnly: true, rng: &rng)
        #expect(Set(customOnly.words) == ["Moon Cake", "Kite"])

        let fallback = WordBag.forGame(settingsCustomWords: ["   ", "!!"], customOnly: true, rng: &rng)
        #expect(fallback.words == WordList.english)

        let mixed = WordBag.forGame(settingsCustomWords: ["Moon Cake", "CAT"], customOnly: false, rng: &rng)
        #expect(mixed.count == WordList.english.count + 1)
        #expect(mixed.words.contains("Moon Cake"))
    }
}

/// The bag's draws for a seed are part of a replayable game: they must not change when
/// its storage does. The small bag's draws were recorded with the bag that kept its words as
/// strings; the English ones again when the list grew to 2,000 words (a new list means new words).
struct WordBagStabilityTests {
    @Test func drawsForASeedAreUnchanged() {
        var rng = SeededRandom(seed: 77)
        var bag = WordBag(words: (0..<7).map { "w\($0)" }, rng: &rng)
        let small = (0..<6).map { _ in bag.draw(3, rng: &rng).joined(separator: " ") }.joined(separator: " | ")
        var englishRNG = SeededRandom(seed: 5)
        var english = WordBag(words: WordList.english, rng: &englishRNG)
        let large = (0..<4).map { _ in english.draw(3, rng: &englishRNG).joined(separator: ",") }.joined(separator: " | ")
        #expect(small == "w3 w1 w2 | w6 w5 w0 | w4 w0 w3 | w2 w1 w5 | w6 w4 w0 | w1 w5 w3")
        #expect(large == "easel,photographer,tank | hinge,lantern,cello | tablet,party popper,ant farm | gingerbread house,water bottle,swimming")
    }
}

/// A bag is stored in every room snapshot: compactly, and readable from older snapshots.
struct WordBagCodingTests {
    func roundTrip(_ bag: WordBag) throws -> (WordBag, String) {
        let json = String(decoding: try JSONEncoder().encode(bag), as: UTF8.self)
        return (try JSONDecoder().decode(WordBag.self, from: Data(json.utf8)), json)
    }

    @Test func theEnglishListIsStoredByNameAndTheOrderAsPositions() throws {
        var rng = SeededRandom(seed: 3)
        var bag = WordBag.forGame(settingsCustomWords: [], customOnly: false, rng: &rng)
        _ = bag.draw(3, rng: &rng)
        let (decoded, json) = try roundTrip(bag)
        #expect(decoded == bag)
        #expect(!json.contains("\"words\""))
        #expect(json.contains(#""list":"en""#))
        // Two bytes a pending word, in base64; no words.
        #expect(json.utf8.count < WordList.english.count * 3 + 200, "\(json.utf8.count) bytes")
        // The restored bag goes on with the same words.
        var a = bag, b = decoded
        var rngA = rng, rngB = rng
        #expect(a.draw(9, rng: &rngA) == b.draw(9, rng: &rngB))
    }

    @Test func customWordsAreStoredWithTheBag() throws {
        var rng = SeededRandom(seed: 3)
        var bag = WordBag.forGame(settingsCustomWords: ["Moon Cake", "kite", "Ünïcode \"quoted\""], customOnly: true, rng: &rng)
        _ = bag.draw(1, rng: &rng)
        let (decoded, json) = try roundTrip(bag)
        #expect(decoded == bag)
        #expect(json.contains("Moon Cake"))
        #expect(decoded.remaining == 2)
    }

    @Test func snapshotsFromEarlierServersStillDecode() throws {
        let json = #"{"words":["cat","dog","sun"],"pending":["sun","cat"]}"#
        var bag = try JSONDecoder().decode(WordBag.self, from: Data(json.utf8))
        #expect(bag.words == ["cat", "dog", "sun"])
        #expect(bag.remaining == 2)
        var rng = SeededRandom(seed: 1)
        #expect(bag.draw(2, rng: &rng) == ["cat", "sun"])
    }

    @Test func unreadableBagsAreRejectedNotTrusted() {
        for json in [
            #"{"words":["cat","dog"],"order":"AAUAAQ=="}"#,  // position 5 of 2 words
            #"{"words":["cat","dog"],"order":"AAE"}"#,       // not base64 of whole positions
            #"{"words":["cat","dog"],"order":"!!"}"#,
            #"{"list":"xx","listFingerprint":"0","order":""}"#,
            #"{"words":["cat"],"pending":["dog"]}"#,
        ] {
            #expect(throws: DecodingError.self, "\(json)") { try JSONDecoder().decode(WordBag.self, from: Data(json.utf8)) }
        }
    }

    @Test func aBagStoredAgainstAnotherEnglishListStartsAFreshCycle() throws {
        let json = #"{"list":"en","listFingerprint":"not-this-list","order":"AAE="}"#
        let bag = try JSONDecoder().decode(WordBag.self, from: Data(json.utf8))
        #expect(bag.words == WordList.english)
        #expect(bag.remaining == WordList.english.count)
    }
}
