/// A small, allocation-light JSON object writer for server messages.
///
/// Server messages are written by hand rather than through `JSONEncoder` so that field
/// order is stable (tests and logs read better) and encoding a broadcast costs one pass.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    package init(capacity: Int = 128) { bytes.reserveCapacity(capacity) }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    package mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma.removeLast() }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    package mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Writes `"key":` inside an object; the value follows.
    package mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        // The value written next must not add a comma of its own.
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    package mutating func value(_ text: String) { separate(); appendString(text) }
    package mutating func value(_ number: Int) { separate(); bytes.append(contentsOf: String(number).utf8) }
    package mutating func value(_ flag: Bool) { separate(); bytes.append(contentsOf: (flag ? "true" : "false").utf8) }
    package mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }

    package mutating func field(_ name: String, _ text: String) { key(name); value(text) }
    package mutating func field(_ name: String, _ number: Int) { key(name); value(number) }
    package mutating func field(_ name: String, _ flag: Bool) { key(name); value(flag) }
    package mutating func field(_ name: String, _ text: String?) {
        key(name)
        if let text { value(text) } else { null() }
    }

    private mutating func separate() {
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
