import DrawProtocol
import Testing
import Rooms

struct WordJudgeTests {
    @Test func exactAndNormalisedMatchesAreCorrect() {
        let judge = WordJudge(word: "ice cream")
        #expect(judge.judge("ice cream") == .correct)
        #expect(judge.judge("  ICE   Cream!! ") == .correct)
        #expect(judge.judge("ice-cream") == .close)  // "icecream": one deleted space
        #expect(WordJudge(word: "Crème brûlée").judge("creme brulee") == .correct)
        #expect(WordJudge(word: "strasse").judge("STRAßE") == .correct)
        #expect(WordJudge(word: "t-rex").judge("TREX") == .correct)
        #expect(WordJudge(word: "t-rex").judge("t rex") == .close)
    }

    @Test func exposesNormalisedWordAndLetterCount() {
        let judge = WordJudge(word: "Ice-Cream Cone")
        #expect(judge.word == "Ice-Cream Cone")
        #expect(judge.normalizedWord == "icecream cone")
        #expect(judge.letterCount == 12)
        #expect(judge.closeDistance == 2)
        #expect(WordJudge(word: "cat").closeDistance == 1)
    }

    @Test func shortWordsAreCloseOnlyAtDistanceOne() {
        let judge = WordJudge(word: "apple")
        #expect(judge.judge("appel") == .wrong)  // transposition = 2 edits
        #expect(judge.judge("aple") == .close)  // deletion
        #expect(judge.judge("apples") == .close)  // insertion
        #expect(judge.judge("apqle") == .close)  // substitution
        #expect(judge.judge("opqle") == .wrong)  // 2 substitutions
        #expect(judge.judge("ap") == .wrong)
        #expect(judge.judge("banana") == .wrong)
    }

    @Test func sevenLetterWordsStillNeedDistanceOne() {
        let judge = WordJudge(word: "giraffe")  // 7 letters
        #expect(judge.judge("girafe") == .close)
        #expect(judge.judge("girafee") == .close)
        #expect(judge.judge("jiraf") == .wrong)
    }

    @Test func longWordsAreCloseUpToDistanceTwo() {
        let judge = WordJudge(word: "elephant")  // 8 letters
        #expect(judge.judge("elefant") == .close)  // ph -> f: 1 sub + 1 del
        #expect(judge.judge("elephnt") == .close)
        #expect(judge.judge("elephatn") == .close)  // transposition
        #expect(judge.judge("elifunt") == .wrong)  // 3 edits
        #expect(judge.judge("elephant!") == .correct)
    }

    @Test func spacesDoNotCountTowardsTheLongWordRule() {
        // "hot dog" has 6 letters: short, so 2 edits are wrong.
        let judge = WordJudge(word: "hot dog")
        #expect(judge.judge("hotdog") == .close)
        #expect(judge.judge("hot dig") == .close)
        #expect(judge.judge("hat dig") == .wrong)
        // "ice cream" has 8 letters: long.
        #expect(WordJudge(word: "ice cream").judge("ise creem") == .close)
    }

    @Test func emptyGuessesAreWrong() {
        let judge = WordJudge(word: "a")
        #expect(judge.judge("") == .wrong)
        #expect(judge.judge("   ") == .wrong)
        #expect(judge.judge("!!!") == .wrong)
        #expect(judge.judge("🙂") == .wrong)
        #expect(judge.judge("b") == .close)
        #expect(judge.judge("A") == .correct)
    }

    @Test func wordWithoutLettersNeverMatches() {
        let judge = WordJudge(word: "!!!")
        #expect(judge.judge("!!!") == .wrong)
        #expect(judge.judge("a") == .wrong)
    }

    @Test func longGuessesAreHandledQuickly() {
        let judge = WordJudge(word: "watermelon")
        let long = String(repeating: "watermelon ", count: 20)
        #expect(judge.judge(long) == .wrong)
        #expect(judge.judge(String(repeating: "x", count: 100_000)) == .wrong)
    }

    @Test(arguments: [
        ("", "", 0), ("", "ab", 2), ("abc", "abc", 0), ("kitten", "sitting", 3),
        ("flaw", "lawn", 2), ("abc", "acb", 2), ("abcdef", "azcdxf", 2), ("a", "b", 1),
    ])
    func editDistanceMatchesLevenshtein(a: String, b: String, distance: Int) {
        let x = Array(a), y = Array(b)
        #expect(WordJudge.editDistance(x, y, limit: 5) == distance)
        #expect(WordJudge.editDistance(y, x, limit: 5) == distance)
        #expect(WordJudge.editDistance(x, y, limit: distance) == distance)
        if distance > 0 {
            #expect(WordJudge.editDistance(x, y, limit: distance - 1) == nil)
        }
    }

    @Test func bandedDistanceAgreesWithFullTable() {
        var rng = SeededRandom(seed: 5)
        let alphabet = Array("abc")
        for _ in 0..<500 {
            let a = (0..<rng.uniformIndex(below: 9)).map { _ in alphabet[rng.uniformIndex(below: 3)] }
            let b = (0..<rng.uniformIndex(below: 9)).map { _ in alphabet[rng.uniformIndex(below: 3)] }
            let full = Self.levenshtein(a, b)
            for limit in 0...3 {
                let banded = WordJudge.editDistance(a, b, limit: limit)
                #expect(banded == (full <= limit ? full : nil), "\(String(a)) vs \(String(b)) limit \(limit)")
            }
        }
    }

    private static func levenshtein(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            row = next
        }
        return row[b.count]
    }
}
