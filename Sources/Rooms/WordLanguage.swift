import DrawProtocol

/// A language the server has a built-in word list for (room setting `language`).
public struct WordLanguage: Sendable, Hashable {
    /// ISO 639-1 code, as sent in `settings.language`.
    public let code: String
    /// The language's name in that language, for pickers (`GET /api/languages`).
    public let name: String

    /// The list used when a room asks for a language without a list.
    public static let defaultCode = "en"

    /// The bundled languages in the order clients show them.
    public static let all: [WordLanguage] = [
        WordLanguage(code: "en", name: "English"),
        WordLanguage(code: "de", name: "Deutsch"),
        WordLanguage(code: "fr", name: "Français"),
        WordLanguage(code: "es", name: "Español"),
        WordLanguage(code: "pt", name: "Português"),
        WordLanguage(code: "it", name: "Italiano"),
        WordLanguage(code: "ru", name: "Русский"),
        WordLanguage(code: "ar", name: "العربية"),
    ]

    public static let codes: Set<String> = Set(all.map(\.code))

    /// Words in this language's built-in list.
    public var wordCount: Int { WordList.words(for: code).count }

    /// `GET /api/languages`: `[{"code":"de","name":"Deutsch","words":N},...]`.
    public static func catalogJSON() -> [UInt8] {
        var w = JSONWriter()
        w.beginArray()
        for language in all {
            w.beginObject()
            w.field("code", language.code)
            w.field("name", language.name)
            w.field("words", language.wordCount)
            w.endObject()
        }
        w.endArray()
        return w.bytes
    }
}
