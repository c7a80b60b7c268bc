/// The unguessable id of a finished turn's drawing: its links `/d/ID.png` and `/d/ID.apng`
/// are capabilities (whoever has one may see the drawing), so it carries 132 random bits.
public struct DrawingID: Hashable, Sendable, CustomStringConvertible {
    /// URL-safe base64 symbols: 22 of them carry 132 bits.
    public static let alphabet: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    public static let length = 22

    public let rawValue: String

    /// Accepts only the exact form the server hands out.
    public init?(parsing text: some StringProtocol) {
        guard text.count == Self.length, text.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        rawValue = String(text)
    }

    package init(trusted rawValue: String) { self.rawValue = rawValue }

    /// Where the final PNG is served (docs/PROTOCOL.md section 6).
    public var pngPath: String { "/d/\(rawValue).png" }
    /// Where the APNG time-lapse is served.
    public var timelapsePath: String { "/d/\(rawValue).apng" }

    public var description: String { rawValue }
}
