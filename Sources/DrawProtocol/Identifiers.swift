import Foundation

/// The public identifier of a player: others use it to invite or kick.
public struct PlayerID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: PlayerID, rhs: PlayerID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A six-character room code from an alphabet without look-alike characters.
public struct RoomCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Letters and digits that cannot be mistaken for one another (no I, O, 0, 1).
    public static let alphabet: [Character] = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    public static let length = 6

    public let rawValue: String

    /// Accepts user input case-insensitively; nil when it is not a well-formed code.
    public init?(parsing text: String) {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        guard upper.count == Self.length, upper.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        self.rawValue = upper
    }

    package init(trusted rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public static func < (lhs: RoomCode, rhs: RoomCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
