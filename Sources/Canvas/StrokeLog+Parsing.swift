import Foundation

extension StrokeLog {
    /// Parses NDJSON; errors name the 1-based line and what is wrong with it.
    ///
    /// Every frame is validated with the codec as it is read (the cursor carried from line to
    /// line), so a parsed log always replays. Blank lines (e.g. trailing ones) are skipped;
    /// unknown fields are ignored as the protocol asks.
    public init(ndjson text: some StringProtocol) throws(StrokeLogError) {
        try self.init(ndjson: Array(text.utf8))
    }

    /// Parses NDJSON bytes (UTF-8); see `init(ndjson:)` for strings.
    public init(ndjson bytes: [UInt8]) throws(StrokeLogError) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            .map { (number: $0.offset + 1, text: $0.element) }
            .filter { !$0.text.allSatisfy { byte in byte == 0x20 || byte == 0x09 || byte == 0x0D } }
        guard !lines.isEmpty else {
            throw StrokeLogError(line: 1, message: "empty log: expected the header line")
        }
        let header = lines.removeFirst()
        guard header.number == 1 else {
            throw StrokeLogError(line: 1, message: "the header must be on the first line")
        }
        let fields = try Self.object(header.text, line: 1)
        guard let format = fields["format"] as? String else {
            throw StrokeLogError(line: 1, message: "header has no \"format\" string")
        }
        guard format == Self.format else {
            throw StrokeLogError(line: 1, message: "unsupported format \"\(format)\", expected \"\(Self.format)\"")
        }
        let width = try Self.integer(fields, "w", line: 1)
        let height = try Self.integer(fields, "h", line: 1)
        let size = CanvasSize(width: width, height: height)
        guard size.isValid else {
            throw StrokeLogError(line: 1, message: "canvas \(size) has a side outside \(CanvasSize.sideRange)")
        }
        var word: String?
        if let value = fields["word"] {
            guard let text = value as? String else {
                throw StrokeLogError(line: 1, message: "\"word\" must be a string")
            }
            word = text
        }
        var frames: [Frame] = []
        var cursor = StrokeCursor()
        var previousAt = 0
        for line in lines {
            let frame = try Self.frame(line.text, line: line.number)
            guard frame.at >= previousAt else {
                throw StrokeLogError(line: line.number, message: "\"at\" \(frame.at) is earlier than the previous line's \(previousAt)")
            }
            do {
                _ = try FrameCodec.validate(frame.bytes, size: size, cursor: &cursor)
            } catch {
                throw StrokeLogError(line: line.number, message: "frame rejected: \(error)")
            }
            previousAt = frame.at
            frames.append(frame)
        }
        self.init(size: size, word: word, frames: frames)
    }

    private static func frame(_ text: ArraySlice<UInt8>, line: Int) throws(StrokeLogError) -> Frame {
        let fields = try object(text, line: line)
        let at = try integer(fields, "at", line: line)
        guard at >= 0 else {
            throw StrokeLogError(line: line, message: "\"at\" must not be negative, got \(at)")
        }
        guard let ops = fields["ops"] as? String else {
            throw StrokeLogError(line: line, message: "missing \"ops\" string")
        }
        guard let data = Data(base64Encoded: ops) else {
            throw StrokeLogError(line: line, message: "\"ops\" is not valid base64")
        }
        return Frame(at: at, bytes: [UInt8](data))
    }

    private static func object(_ text: ArraySlice<UInt8>, line: Int) throws(StrokeLogError) -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(text))
        } catch {
            throw StrokeLogError(line: line, message: "not valid JSON")
        }
        guard let fields = parsed as? [String: Any] else {
            throw StrokeLogError(line: line, message: "not a JSON object")
        }
        return fields
    }

    /// An integral JSON number; booleans (which Foundation bridges to numbers) are refused.
    private static func integer(_ fields: [String: Any], _ key: String, line: Int) throws(StrokeLogError) -> Int {
        guard let number = fields[key] as? NSNumber else {
            throw StrokeLogError(line: line, message: "missing \"\(key)\" number")
        }
        let value = number.doubleValue
        guard String(cString: number.objCType) != "c", value.rounded() == value, abs(value) < 9e15 else {
            throw StrokeLogError(line: line, message: "\"\(key)\" must be an integer")
        }
        return Int(value)
    }
}
