import Crypto
import DrawProtocol

/// SHA-256 (swift-crypto) of secrets that are stored or compared only as digests: resume
/// tokens and the moderator token.
public enum TokenHash {
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// Lower-case hexadecimal digest, as stored with each player.
    public static func hex(_ text: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(text.utf8)) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
