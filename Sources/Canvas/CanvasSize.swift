/// The logical size of a drawing in pixels.
public struct CanvasSize: Hashable, Sendable, CustomStringConvertible {
    /// Pixels across; the wire's point limits `[-w, 2w)` derive from it.
    public var width: Int
    /// Pixels down; the wire's point limits `[-h, 2h)` derive from it.
    public var height: Int

    /// Not validated: callers building sizes from untrusted text use `init?(parsing:)`.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The protocol's default canvas (section 5.1).
    public static let standard = CanvasSize(width: 800, height: 600)

    /// The sides a parsed or logged size may have; keeps rasters bounded (4096² RGB is 48 MiB).
    public static let sideRange = 16...4096

    /// Parses `"800x600"` (an upper-case `X` is accepted too); each side must be in `sideRange`.
    public init?(parsing text: String) {
        let pieces = text.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "X" }
        guard pieces.count == 2,
              let width = Self.side(pieces[0]),
              let height = Self.side(pieces[1])
        else { return nil }
        self.init(width: width, height: height)
    }

    /// Whether both sides are in `sideRange`, i.e. whether a stroke log may declare this size.
    public var isValid: Bool {
        Self.sideRange.contains(width) && Self.sideRange.contains(height)
    }

    /// The `WIDTHxHEIGHT` form `init?(parsing:)` reads back, for flags and logs.
    public var description: String { "\(width)x\(height)" }

    private static func side(_ text: Substring) -> Int? {
        // Digits only: `Int("+800")` would accept a sign, and long inputs must not overflow.
        guard !text.isEmpty, text.count <= 5, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int(text), sideRange.contains(value)
        else { return nil }
        return value
    }
}
