import DrawProtocol
import Testing
import Rooms

/// The folding rules of each bundled language (docs/GAME.md, "Languages and folding").
struct LanguageFoldingTests {
    private func fold(_ text: String) -> String { GuessNormalizer.normalize(text) }

    @Test func latinAccentsFold() {
        #expect(fold("Crème Brûlée") == "creme brulee")
        #expect(fold("Ñandú") == "nandu")
        #expect(fold("Pão") == "pao")
        #expect(fold("Perché") == "perche")
        #expect(fold("Çà") == "ca")
    }

    @Test func germanUmlautsAndSharpS() {
        #expect(fold("Straße") == fold("Strasse"))
        #expect(fold("STRASSE") == fold("straße"))
        #expect(fold("ẞ") == "ss")
        #expect(fold("Äpfel") == "apfel")
        #expect(fold("Übung") == "ubung")
        #expect(WordJudge(word: "Fußball").judge("fussball") == .correct)
        #expect(WordJudge(word: "Fußball").judge("FUSSBALL") == .correct)
        #expect(WordJudge(word: "Schlüssel").judge("schlussel") == .correct)
    }

    @Test func germanUmlautsMayBeSpelledOut() {
        #expect(WordJudge(word: "Bär").judge("Baer") == .correct)
        #expect(WordJudge(word: "Bär").judge("bar") == .correct)
        #expect(WordJudge(word: "Schlüssel").judge("SCHLUESSEL") == .correct)
        #expect(WordJudge(word: "Glühwürmchen").judge("Gluehwuermchen") == .correct)
        #expect(WordJudge(word: "Äpfel").judge("aepfel") == .correct)
        // A typo of the spelled-out form is close, of anything else still wrong.
        #expect(WordJudge(word: "Schlüssel").judge("Schluesel") == .close)
        #expect(WordJudge(word: "Bär").judge("Boer") == .close)
        // Words without umlauts are unchanged: "ae" is not "a" there.
        #expect(WordJudge(word: "Maus").judge("Maeus") == .close)
        #expect(WordJudge(word: "cat").judge("caet") == .close)
    }

    @Test func cyrillicCaseAndYo() {
        #expect(fold("МЕДВЕДЬ") == "медведь")
        #expect(fold("Ёлка") == fold("елка"))
        #expect(fold("ёж") == "еж")
        #expect(WordJudge(word: "Ёжик").judge("ежик") == .correct)
        #expect(WordJudge(word: "самолёт").judge("САМОЛЕТ") == .correct)
        // Й is a letter of its own, not И with a mark to drop.
        #expect(fold("й") == "й")
    }

    @Test func arabicDiacriticsAreDropped() {
        // كِتَابٌ with kasra, fatha, dammatan.
        #expect(fold("كِتَابٌ") == "كتاب")
        for mark in 0x064B...0x0652 {
            let scalar = Unicode.Scalar(UInt32(mark))!
            #expect(fold("ب" + String(Character(scalar)) + "ا") == "با", "U+\(String(mark, radix: 16))")
        }
        // Superscript alef, as in هٰذا.
        #expect(fold("هٰذا") == "هذا")
    }

    @Test func arabicHamzaFormsUnify() {
        #expect(fold("أسد") == "اسد")
        #expect(fold("إبرة") == fold("ابره"))
        #expect(fold("آلة") == fold("الة"))
        #expect(fold("مؤمن") == "مومن")
        #expect(fold("بئر") == "بير")
    }

    @Test func arabicTatweelAlefMaqsuraAndTehMarbuta() {
        #expect(fold("قـــلم") == "قلم")
        #expect(fold("مستشفى") == fold("مستشفي"))
        #expect(fold("شجرة") == fold("شجره"))
        #expect(WordJudge(word: "طاولة").judge("طاوله") == .correct)
        #expect(WordJudge(word: "مستشفى").judge("مستشفي") == .correct)
        #expect(WordJudge(word: "أرنب").judge("ارنب") == .correct)
    }

    @Test func closeGuessesAreMeasuredOnTheFoldedForm() {
        // One letter off after folding, however many marks differ.
        #expect(WordJudge(word: "Schlüssel").judge("Schlüsel") == .close)
        #expect(WordJudge(word: "Straße").judge("strase") == .close)
        #expect(WordJudge(word: "самолёт").judge("самолот") == .close)
        #expect(WordJudge(word: "طاولة").judge("طَاوِل") == .close)
        #expect(WordJudge(word: "كتاب").judge("كِتَابٌ") == .correct)
        #expect(WordJudge(word: "كتاب").judge("كتب") == .close)
    }

    @Test func masksHideLettersOfEveryScript() {
        #expect(WordMask(word: "Ёжик").rendered() == "_ _ _ _")
        #expect(WordMask(word: "كتاب").rendered() == "_ _ _ _")
        #expect(WordMask(word: "شجرة عيد").rendered() == "_ _ _ _   _ _ _")
        #expect(WordMask(word: "Fußball").rendered() == "_ _ _ _ _ _ _")
        #expect(WordMask(word: "tire-bouchon").rendered() == "_ _ _ _ - _ _ _ _ _ _ _")
        var rng = SeededRandom(seed: 7)
        var mask = WordMask(word: "самолёт")
        while mask.reveal(using: &rng) {}
        #expect(mask.revealedCount == 3)
        let shown = mask.rendered().split(separator: " ").filter { $0 != "_" }
        #expect(shown.count == 3)
        #expect(shown.allSatisfy { "самолёт".contains($0) })
    }
}
