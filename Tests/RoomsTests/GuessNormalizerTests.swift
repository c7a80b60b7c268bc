import DrawProtocol
import Testing
import Rooms

struct GuessNormalizerTests {
    @Test(arguments: [
        ("STRAßE", "strasse"),
        ("Straße", "strasse"),
        ("STRASSE", "strasse"),
        ("ẞ", "ss"),
        ("HELLO World", "hello world"),
        ("ΟΔΟΣ", "οδοσ"),
        ("οδός", "οδοσ"),
    ])
    func caseFolding(input: String, expected: String) {
        #expect(GuessNormalizer.normalize(input) == expected)
    }

    @Test func sharpSVariantsAreEqual() {
        #expect(GuessNormalizer.normalize("STRAßE") == GuessNormalizer.normalize("strasse"))
    }

    @Test(arguments: [
        ("Crème brûlée", "creme brulee"),
        ("CRÈME BRÛLÉE", "creme brulee"),
        ("crème brûlée", "creme brulee"),
        ("Ångström", "angstrom"),
        ("jalapeño", "jalapeno"),
        ("naïve café", "naive cafe"),
    ])
    func diacriticsRemoved(input: String, expected: String) {
        #expect(GuessNormalizer.normalize(input) == expected)
    }

    @Test func decomposedAndPrecomposedInputAgree() {
        // "é" typed as e + U+0301 (combining acute) versus U+00E9.
        #expect(GuessNormalizer.normalize("cafe\u{301}") == GuessNormalizer.normalize("caf\u{E9}"))
        #expect(GuessNormalizer.normalize("cafe\u{301}") == "cafe")
    }

    /// Punctuation is dropped without leaving a space: "ice-cream!!" is "icecream", which is
    /// one edit (a space) away from "ice cream", so that guess is judged close, not correct.
    @Test(arguments: [
        ("ice-cream!!", "icecream"),
        ("T-Rex", "trex"),
        ("O'Neil", "oneil"),
        ("O’Neil", "oneil"),
        ("Oʼneil", "oneil"),
        ("hot dog?", "hot dog"),
        ("it's a... CAT!", "its a cat"),
        ("🐱 cat 🐱", "cat"),
        ("x-ray #1", "xray 1"),
        ("$100", "100"),
    ])
    func punctuationAndSymbolsDropped(input: String, expected: String) {
        #expect(GuessNormalizer.normalize(input) == expected)
    }

    @Test(arguments: [
        ("  ice   cream ", "ice cream"),
        ("ice\tcream", "ice cream"),
        ("ice\n\ncream", "ice cream"),
        ("ice\u{00A0}cream", "ice cream"),
        ("ice - cream", "ice cream"),
        ("   ", ""),
        ("", ""),
        ("?!", ""),
    ])
    func whitespaceCollapsedAndTrimmed(input: String, expected: String) {
        #expect(GuessNormalizer.normalize(input) == expected)
    }

    @Test func compatibilityFormsFolded() {
        #expect(GuessNormalizer.normalize("ＣＡＴ") == "cat")
        #expect(GuessNormalizer.normalize("ﬁsh") == "fish")
    }

    @Test func nonLatinScriptsKept() {
        #expect(GuessNormalizer.normalize("Кот") == "кот")
        #expect(GuessNormalizer.normalize("고양이") == "고양이")
        #expect(GuessNormalizer.normalize("猫") == "猫")
        #expect(!GuessNormalizer.normalize("बिल्ली").isEmpty)
    }

    @Test func idempotent() {
        for text in ["Crème brûlée", "STRAßE", "  T-Rex!! ", "고양이", "Ｘ-ray"] {
            let once = GuessNormalizer.normalize(text)
            #expect(GuessNormalizer.normalize(once) == once)
        }
    }
}
