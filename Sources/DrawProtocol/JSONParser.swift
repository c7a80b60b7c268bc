/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`, for client messages.
///
/// Every chat line, guess and game command is one of these, so it runs for each text frame
/// a player sends; Foundation's `JSONDecoder`, which `JSONValue` used to go through, tried
/// each kind of value in turn and threw for every miss. Accepts exactly what JSON allows:
/// one value with optional whitespace around it; no trailing commas, comments, leading
/// zeros, bare control characters, unpaired surrogates or invalid UTF-8. Numbers must fit
/// a `Double`. Nesting deeper than `maxDepth` is refused (no client message nests beyond 3),
/// so a frame of brackets cannot exhaust the stack. Duplicate keys: the last one wins.
package struct JSONParser {
    package static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The value `bytes` hold, or nil when they are not exactly one JSON value.
    package static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        var parser = JSONParser(Array(bytes))
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count ? value : nil
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) -> JSONValue? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number().map(JSONValue.number)
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    private mutating func object(depth: Int) -> JSONValue? {
        var members: [String: JSONValue] = [:]
        let closed = elements(closedBy: UInt8(ascii: "}"), depth: depth) { parser in
            guard parser.current == UInt8(ascii: "\""), let key = parser.string() else { return false }
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: ":") else { return false }
            parser.index += 1
            parser.skipWhitespace()
            guard let member = parser.value(depth: depth) else { return false }
            members[key] = member
            return true
        }
        return closed ? .object(members) : nil
    }

    private mutating func array(depth: Int) -> JSONValue? {
        var elements: [JSONValue] = []
        let closed = self.elements(closedBy: UInt8(ascii: "]"), depth: depth) { parser in
            guard let element = parser.value(depth: depth) else { return false }
            elements.append(element)
            return true
        }
        return closed ? .array(elements) : nil
    }

    /// The comma-separated elements of an array or object, `index` on its opening bracket:
    /// `element` parses one (false when it is not valid). True once `close` ended them.
    private mutating func elements(closedBy close: UInt8, depth: Int, _ element: (inout JSONParser) -> Bool) -> Bool {
        guard depth <= Self.maxDepth else { return false }
        index += 1
        skipWhitespace()
        if current == close {
            index += 1
            return true
        }
        while true {
            skipWhitespace()
            guard element(&self) else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case close:
                index += 1
                return true
            default: return false
            }
        }
    }

    /// A string literal, `index` on its opening quote.
    private mutating func string() -> String? {
        index += 1
        let start = index
        // The common case, no escapes: validated and decoded in one go.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        guard let stop = current else { return nil }
        if stop == UInt8(ascii: "\"") {
            index += 1
            return String(validating: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<index])
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard escape(into: &utf8) else { return nil }
            default:
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    /// Appends the UTF-8 of one escape, `index` just past its backslash; false when it is
    /// not a valid escape.
    private mutating func escape(into utf8: inout [UInt8]) -> Bool {
        guard let byte = current else { return false }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return false }
            var scalarValue = UInt32(unit)
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard current == UInt8(ascii: "\\") else { return false }
                index += 1
                guard current == UInt8(ascii: "u") else { return false }
                index += 1
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return false }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            // nil for a lone low surrogate.
            guard let scalar = Unicode.Scalar(scalarValue) else { return false }
            UTF8.encode(scalar) { utf8.append($0) }
        default:
            return false
        }
        return true
    }

    private mutating func hex4() -> UInt16? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a finite `Double`.
    private mutating func number() -> Double? {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, isDigit(digit) else { return nil }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else { return nil }
            skipDigits()
        }
        // The grammar above admits only ASCII.
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }
}
