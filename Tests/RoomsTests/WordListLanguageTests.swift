import DrawProtocol
import Foundation
import Testing
import Rooms

/// Every bundled list: its size, no repeats after folding, and words that mask, hint and
/// judge correctly in their own script.
struct WordListLanguageTests {
    static let minimumSizes = ["en": 2000, "de": 800, "fr": 800, "es": 800, "pt": 800, "it": 800, "ru": 800, "ar": 800]

    /// The list file as written, so repeats are caught in the file and not only hidden by
    /// `WordList.parse` dropping them.
    static func rawEntries(_ code: String) throws -> [String] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Rooms/Resources/words-\(code).txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    @Test func theEightLanguagesAreOffered() {
        #expect(WordLanguage.all.map(\.code) == ["en", "de", "fr", "es", "pt", "it", "ru", "ar"])
        #expect(WordLanguage.all.map(\.name) == ["English", "Deutsch", "Français", "Español", "Português", "Italiano", "Русский", "العربية"])
        #expect(WordList.hasBuiltInList)
    }

    @Test(arguments: ["en", "de", "fr", "es", "pt", "it", "ru", "ar"])
    func listMeetsItsSizeWithoutRepeats(code: String) throws {
        let words = WordList.words(for: code)
        #expect(words.count >= Self.minimumSizes[code] ?? 800, "\(code): \(words.count) words")
        let raw = try Self.rawEntries(code)
        var seen: [String: String] = [:]
        for entry in raw {
            let key = GuessNormalizer.normalize(entry)
            #expect(seen[key] == nil, "\(code): \"\(entry)\" repeats \"\(seen[key] ?? "")\" after folding")
            seen[key] = entry
        }
        #expect(words.count == raw.count)
    }

    @Test(arguments: ["en", "de", "fr", "es", "pt", "it", "ru", "ar"])
    func everyWordMasksHintsAndJudges(code: String) {
        var rng = SeededRandom(seed: 21)
        for word in WordList.words(for: code) {
            #expect(word.count <= WordList.maxWordLength, "\(word)")
            #expect(word == word.trimmingCharacters(in: .whitespaces))
            var mask = WordMask(word: word)
            let letters = word.filter { $0.isLetter || $0.isNumber }.count
            #expect(mask.letterPositions.count == letters && letters >= 2, "\(code): \(word)")
            // Nothing of the word shows before a hint: every letter is a blank.
            let blank = mask.rendered()
            #expect(blank.filter { $0 == "_" }.count == letters, "\(code): \(word) -> \(blank)")
            let visibleLetters = blank.filter { $0.isLetter }
            #expect(visibleLetters.isEmpty, "\(code): \(word) -> \(blank)")
            // Hints reveal half the letters, each in its place.
            while mask.reveal(using: &rng) {}
            #expect(mask.revealedCount == letters / 2)
            let hinted = mask.rendered()
            #expect(hinted.filter { $0 == "_" }.count == letters - letters / 2, "\(code): \(word) -> \(hinted)")
            #expect(!mask.renderedFully().contains("_"))
            // The word is guessed as written, in capitals and with extra spaces.
            let judge = WordJudge(word: word)
            #expect(judge.judge(word) == .correct)
            #expect(judge.judge("  " + word.uppercased() + " ") == .correct, "\(code): \(word)")
        }
    }

    @Test(arguments: ["de", "fr", "es", "pt", "it", "ru", "ar"])
    func aRoomInTheLanguageDrawsFromItsList(code: String) {
        var rng = SeededRandom(seed: 3)
        var bag = WordBag.forGame(language: code, settingsCustomWords: [], customOnly: false, rng: &rng)
        #expect(bag.words == WordList.words(for: code))
        let list = Set(WordList.words(for: code))
        #expect(bag.draw(5, rng: &rng).allSatisfy(list.contains))
        // Unknown codes fall back to English.
        let fallback = WordBag.forGame(language: "xx", settingsCustomWords: [], customOnly: false, rng: &rng)
        #expect(fallback.words == WordList.english)
    }

    @Test(arguments: ["de", "ru", "ar"])
    func aStoredBagNamesItsListAndComesBack(code: String) throws {
        var rng = SeededRandom(seed: 9)
        var bag = WordBag.forGame(language: code, settingsCustomWords: [], customOnly: false, rng: &rng)
        _ = bag.draw(3, rng: &rng)
        let data = try JSONEncoder().encode(bag)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"list\":\"\(code)\""))
        #expect(!json.contains("\"words\""))
        let back = try JSONDecoder().decode(WordBag.self, from: data)
        #expect(back == bag)
        #expect(back.list == code)
    }

    @Test func settingsAcceptTheEightLanguagesAndFallBackToEnglish() {
        var settings = RoomSettings()
        for code in ["de", "fr", "es", "pt", "it", "ru", "ar", "en"] {
            settings = settings.applying(SettingsPatch(language: code))
            #expect(settings.language == code)
        }
        #expect(settings.applying(SettingsPatch(language: "tlh")).language == "en")
    }

    @Test func catalogListsEveryLanguageWithItsCount() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(WordLanguage.catalogJSON())) as? [[String: Any]])
        #expect(json.count == 8)
        #expect(json.first?["code"] as? String == "en")
        #expect(json.first?["name"] as? String == "English")
        #expect(json.first?["words"] as? Int == WordList.english.count)
        #expect(json.last?["name"] as? String == "العربية")
    }
}
