import NIOCore

/// Checks UTF-8 as it arrives, fragment by fragment, so a text message is failed at the
/// first fragment that cannot be part of valid UTF-8 (RFC 6455 section 8.1: "fail fast"),
/// not when its last fragment arrives. A code point may be split across fragments.
struct UTF8Validator {
    /// Continuation bytes still expected for the current code point.
    private var needed = 0
    /// The allowed range of the next continuation byte (narrower right after some leading
    /// bytes: no overlong forms, no surrogates, nothing above U+10FFFF).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Feeds bytes; false as soon as they cannot be valid UTF-8.
    mutating func feed(_ buffer: ByteBuffer) -> Bool {
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                guard feed(byte) else { return false }
            }
            return true
        }
    }

    /// Whether what was fed ends on a whole code point.
    var isComplete: Bool { needed == 0 }

    private mutating func feed(_ byte: UInt8) -> Bool {
        if needed > 0 {
            guard byte >= low && byte <= high else { return false }
            needed -= 1
            (low, high) = (0x80, 0xBF)
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: needed = 1
        case 0xE0: (needed, low) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: needed = 2
        case 0xED: (needed, high) = (2, 0x9F)
        case 0xF0: (needed, low) = (3, 0x90)
        case 0xF1...0xF3: needed = 3
        case 0xF4: (needed, high) = (3, 0x8F)
        default: return false
        }
        return true
    }
}
