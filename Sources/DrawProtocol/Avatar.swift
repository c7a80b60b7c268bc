/// A player's avatar: four enumerated parts, never free-form markup, so a client draws it
/// from its own pictures and nothing a player sends can inject anything.
///
/// Wire form (protocol additions, "Avatars"): `{"color":C,"eyes":E,"mouth":M,"accessory":A}`
/// with integers in `Avatar.ranges`; accessory 0 means none.
public struct Avatar: Sendable, Hashable, Codable {
    public let color: Int
    public let eyes: Int
    public let mouth: Int
    public let accessory: Int

    /// The allowed values of each part, by its wire key.
    public static let ranges: [(key: String, range: ClosedRange<Int>)] = [
        ("color", 0...11), ("eyes", 0...5), ("mouth", 0...5), ("accessory", 0...6),
    ]

    /// Nil when any part is out of range.
    public init?(color: Int, eyes: Int, mouth: Int, accessory: Int) {
        let parts = [color, eyes, mouth, accessory]
        guard zip(parts, Self.ranges).allSatisfy({ $1.range.contains($0) }) else { return nil }
        self.color = color
        self.eyes = eyes
        self.mouth = mouth
        self.accessory = accessory
    }

    /// The avatar a player gets when its `hello` carries none: derived from the id (FNV-1a),
    /// so it is the same on every server and after every restart.
    public static func standard(for id: PlayerID) -> Avatar {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.rawValue.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        var parts: [Int] = []
        for (_, range) in ranges {
            let count = UInt64(range.count)
            parts.append(range.lowerBound + Int(hash % count))
            hash /= count
        }
        // In range by construction.
        return Avatar(uncheckedColor: parts[0], eyes: parts[1], mouth: parts[2], accessory: parts[3])
    }

    private init(uncheckedColor color: Int, eyes: Int, mouth: Int, accessory: Int) {
        self.color = color
        self.eyes = eyes
        self.mouth = mouth
        self.accessory = accessory
    }

    /// Stored avatars are checked like sent ones: a corrupted row cannot put an
    /// out-of-range part on the wire.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let avatar = Avatar(
            color: try container.decode(Int.self, forKey: .color), eyes: try container.decode(Int.self, forKey: .eyes),
            mouth: try container.decode(Int.self, forKey: .mouth), accessory: try container.decode(Int.self, forKey: .accessory)
        ) else {
            throw DecodingError.dataCorruptedError(forKey: .color, in: container, debugDescription: "avatar part out of range")
        }
        self = avatar
    }

    private enum CodingKeys: String, CodingKey { case color, eyes, mouth, accessory }

    /// Validates a `hello`'s `avatar` object: exactly the four keys, each an integer in its
    /// range. The error names what is wrong (code `bad_message`).
    public static func parse(_ object: [String: JSONValue]) -> Result<Avatar, ProtocolError> {
        let known = Set(ranges.map(\.key))
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(ProtocolError(.badMessage, "avatar has an unknown part \"\(unknown.prefix(40))\""))
        }
        var parts: [Int] = []
        for (key, range) in ranges {
            guard let value = object[key] else {
                return .failure(ProtocolError(.badMessage, "avatar is missing \"\(key)\""))
            }
            guard case .number(let number) = value, number.isFinite, number.rounded() == number,
                  number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                return .failure(ProtocolError(
                    .badMessage, "avatar \"\(key)\" must be an integer \(range.lowerBound)...\(range.upperBound)"
                ))
            }
            parts.append(Int(number))
        }
        guard let avatar = Avatar(color: parts[0], eyes: parts[1], mouth: parts[2], accessory: parts[3]) else {
            return .failure(ProtocolError(.badMessage, "avatar part out of range"))
        }
        return .success(avatar)
    }

    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("color", color)
        w.field("eyes", eyes)
        w.field("mouth", mouth)
        w.field("accessory", accessory)
        w.endObject()
    }
}
