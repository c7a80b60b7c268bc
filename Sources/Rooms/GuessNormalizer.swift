import DrawProtocol
import Foundation

/// Brings a guess and a word to a comparable form (protocol section 4, "Judging").
///
/// Players type on phones, with or without accents, caps lock, stray punctuation or
/// double spaces; none of that should decide whether a guess is right. The pipeline:
///
/// 1. Compatibility decomposition (NFKD): splits accented letters into base letter plus
///    combining mark, and folds look-alike forms (full-width "Ａ", ligature "ﬁ", "²").
/// 2. Unicode lowercasing (Latin, Greek, Cyrillic), plus the foldings lowercasing alone
///    misses: "ß"/"ẞ" become "ss", final sigma "ς" becomes "σ", and in Arabic alef maqsura
///    "ى" becomes "ي" and teh marbuta "ة" becomes "ه" (players type either), while tatweel
///    "ـ" (a stretching stroke, not a letter) is dropped.
/// 3. Nonspacing and enclosing marks (categories Mn, Me) are dropped: the diacritics. So
///    "é" is "e", "ё" is "е" (but "й" stays a letter of its own), Arabic harakat (U+064B...U+0652) and superscript alef
///    (U+0670) go, and the hamza carried by "أ إ آ ؤ ئ" (which NFKD splits off as a mark)
///    goes too, leaving "ا", "و", "ي". Spacing marks (Mc) are kept because in scripts such
///    as Devanagari they are vowels.
/// 4. Letters, numbers and spacing marks are kept; any whitespace becomes a space;
///    everything else (punctuation such as hyphens and apostrophes, including the
///    apostrophe-like spacing modifier letters U+02B0...U+02FF, symbols, emoji,
///    control and format characters) is dropped without leaving a space, so
///    "T-Rex" is "trex" and "O'Neil" is "oneil".
/// 5. Space runs are collapsed to one space and the ends trimmed.
/// 6. The result is recomposed (NFC) so Hangul syllables are single scalars again.
public enum GuessNormalizer {
    /// The normalised form of `text`; empty when nothing letter-like is left.
    public static func normalize(_ text: String) -> String {
        let decomposed = text.decomposedStringWithCompatibilityMapping.lowercased()
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false

        func append(_ scalar: Unicode.Scalar) {
            if pendingSpace, !scalars.isEmpty { scalars.append(" ") }
            pendingSpace = false
            scalars.append(scalar)
        }

        // Lowercasing may itself produce composed or compatibility forms, so decompose again.
        for scalar in decomposed.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar {
            case "ß", "ẞ":
                append("s")
                append("s")
                continue
            case "ς":
                append("σ")
                continue
            case "\u{0649}": // ى alef maqsura
                append("\u{064A}")
                continue
            case "\u{0629}": // ة teh marbuta
                append("\u{0647}")
                continue
            case "\u{0640}": // ـ tatweel
                continue
            case "\u{0306}" where scalars.last == "и":
                // Russian "й" is a letter of its own, not "и" with a diacritic: keep its breve
                // (NFC below puts it back together).
                append(scalar)
                continue
            case "\u{02B0}"..."\u{02FF}":
                // Spacing modifier letters left after NFKD are apostrophe and accent look-alikes
                // ("ʼ" U+02BC is typed as an apostrophe on some keyboards), not letters.
                continue
            default:
                break
            }
            if scalar.properties.isWhitespace {
                pendingSpace = true
                continue
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .spacingMark, .decimalNumber, .letterNumber, .otherNumber:
                append(scalar)
            default:
                // Diacritics, punctuation, symbols, controls, format characters: dropped.
                break
            }
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }
}
