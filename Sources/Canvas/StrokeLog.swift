import Foundation

/// A turn's drawing as the NDJSON stroke log of protocol section 7: a header line, then one
/// line per binary frame the drawer sent, with its time since the turn started.
public struct StrokeLog: Sendable, Equatable {
    /// One binary frame as sent, and when.
    public struct Frame: Sendable, Equatable {
        /// Milliseconds since the turn started.
        public var at: Int
        /// The frame exactly as received, so replays and relays see the same operations.
        public var bytes: [UInt8]

        /// A frame sent `at` milliseconds into the turn.
        public init(at: Int, bytes: [UInt8]) {
            self.at = at
            self.bytes = bytes
        }
    }

    /// The `format` value of the header line.
    public static let format = "drawserver-strokes/1"

    /// The canvas the frames were drawn on; it bounds their points and fills.
    public var size: CanvasSize
    /// Optional extra header field naming what was drawn.
    public var word: String?
    /// The frames in the order the drawer sent them.
    public var frames: [Frame]

    /// A log; frames are not validated here (`drawing()` reports a bad one by line).
    public init(size: CanvasSize, word: String? = nil, frames: [Frame] = []) {
        self.size = size
        self.word = word
        self.frames = frames
    }

    /// The log as NDJSON: the header line, then one line per frame, each ending in `"\n"`.
    public func ndjson() -> String {
        var text = "{\"format\":\"\(Self.format)\",\"w\":\(size.width),\"h\":\(size.height)"
        if let word {
            text += ",\"word\":" + Self.jsonString(word)
        }
        text += "}\n"
        for frame in frames {
            text += "{\"at\":\(frame.at),\"ops\":\"\(Data(frame.bytes).base64EncodedString())\"}\n"
        }
        return text
    }

    /// Applies every frame in order to a white canvas; a rejected frame names its line.
    public func drawing() throws(StrokeLogError) -> Drawing {
        var drawing = Drawing(size: size)
        for (index, frame) in frames.enumerated() {
            do {
                _ = try drawing.apply(frame: frame.bytes)
            } catch {
                throw StrokeLogError(line: index + 2, message: "frame rejected: \(error)")
            }
        }
        return drawing
    }

    /// A JSON string literal; only `"`, `\` and control characters need escaping. Public
    /// for the tools that write JSON by hand (the replay client's messages).
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
