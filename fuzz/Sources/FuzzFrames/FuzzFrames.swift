import Canvas

/// libFuzzer target for the binary drawing codec (protocol section 5.2) and stroke logs
/// (section 7).
///
/// Input layout: the first byte picks what is fuzzed, the rest is the payload.
/// - header bit 7 clear: the payload is ONE binary frame. Bits 0-1 pick the canvas size,
///   bit 2 starts with a stroke open (cursor at bits 3-6 scaled), so POINTS and END at the
///   start of a frame are reachable as in a live turn.
/// - header bit 7 set: the payload is NDJSON for `StrokeLog(ndjson:)`.
///
/// Invariants checked (any violation traps, which libFuzzer reports as a crash):
/// 0. `FrameCodec.decode` agrees with `referenceDecode`, an independent decoder written from
///    the protocol text, on acceptance, operations and the cursor after the frame.
/// 1. decode, validate, `Drawing.apply(frame:)` and `LiveCanvas.apply(frame:)` never crash
///    and agree on acceptance; a rejected frame changes neither the cursor nor the drawing.
/// 2. Accepted: validate's summary counts match the decoded operations; the cursor after
///    decode, validate and apply is the same; re-encoding the operations from the starting
///    cursor decodes to the same operations and the same cursor.
/// 3. The drawing's compacted frames decode (from a fresh cursor) to its compacted ops, and
///    replaying them gives a drawing with the same compacted ops.
/// 4. A frame wrapped in a stroke log round-trips through `ndjson()`/`init(ndjson:)` exactly
///    when it is valid from a fresh cursor; a log that parses replays without error and
///    round-trips through `ndjson()`.
@c(LLVMFuzzerTestOneInput)
public func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let header = data[0]
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if header & 0x80 != 0 {
        checkStrokeLog(payload)
    } else {
        checkFrame(payload, header: header)
    }
    return 0
}

/// Canvas sizes: the default, the smallest legal, a lopsided one, the largest legal.
private let sizes = [
    CanvasSize.standard,
    CanvasSize(width: 16, height: 16),
    CanvasSize(width: 37, height: 19),
    CanvasSize(width: 4096, height: 4096),
]

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("invariant violated: \(message())")
    }
}

private func checkFrame(_ frame: [UInt8], header: UInt8) {
    let size = sizes[Int(header & 0x03)]
    var start = StrokeCursor()
    if header & 0x04 != 0 {
        // An open stroke whose pen sits somewhere on (or just off) the canvas.
        let step = Int32((header >> 3) & 0x0F)
        start.isOpen = true
        start.last = Point(x: Int32(size.width) * step / 8 - 1, y: Int32(size.height) * (15 - step) / 8 - 1)
    }

    var decodeCursor = start
    let decoded: Result<[DrawOperation], FrameError>
    do throws(FrameError) {
        decoded = .success(try FrameCodec.decode(frame, size: size, cursor: &decodeCursor))
    } catch {
        decoded = .failure(error)
    }

    var validateCursor = start
    let validated: Result<FrameSummary, FrameError>
    do throws(FrameError) {
        validated = .success(try FrameCodec.validate(frame, size: size, cursor: &validateCursor))
    } catch {
        validated = .failure(error)
    }

    // A drawing whose cursor is `start`: an open stroke needs a BEGIN applied first.
    var drawing = Drawing(size: size)
    if start.isOpen {
        drawing.apply(.begin(tool: .pen, color: .black, width: 3, at: start.last))
        check(drawing.cursor == start, "BEGIN put the drawing's cursor at \(drawing.cursor), not \(start)")
    }
    let before = drawing.compacted()
    let applied: Result<FrameSummary, FrameError>
    do throws(FrameError) {
        applied = .success(try drawing.apply(frame: frame))
    } catch {
        applied = .failure(error)
    }

    // The differential oracle: an independent decoder written from the protocol text.
    let reference = referenceDecode(frame, size: size, start: start)
    switch (decoded, reference) {
    case let (.success(operations), (referenceOperations, referenceCursor)?):
        check(operations == referenceOperations, "decode gave \(operations), the reference decoder \(referenceOperations)")
        check(decodeCursor == referenceCursor, "decode cursor \(decodeCursor), reference \(referenceCursor)")
    case (.failure, nil):
        break
    default:
        check(false, "decode \(decoded) but the reference decoder \(reference == nil ? "rejects" : "accepts") the frame")
    }

    switch (decoded, validated, applied) {
    case let (.failure(decodeError), .failure(validateError), .failure(applyError)):
        check(decodeError == validateError && validateError == applyError,
              "errors differ: decode \(decodeError), validate \(validateError), apply \(applyError)")
        check(decodeCursor == start && validateCursor == start, "a rejected frame moved the cursor")
        check(drawing.cursor == start && drawing.compacted() == before, "a rejected frame changed the drawing")
    case let (.success(operations), .success(summary), .success(appliedSummary)):
        check(summary == appliedSummary, "validate \(summary) vs apply \(appliedSummary)")
        checkAccepted(frame, operations: operations, summary: summary, start: start, size: size)
        check(decodeCursor == validateCursor, "decode cursor \(decodeCursor) vs validate cursor \(validateCursor)")
        check(drawing.cursor == decodeCursor, "drawing cursor \(drawing.cursor) vs decode cursor \(decodeCursor)")
        var reencodeCursor = start
        let reencoded = FrameCodec.encode(operations, cursor: &reencodeCursor)
        check(reencodeCursor == decodeCursor, "encode cursor \(reencodeCursor) vs decode cursor \(decodeCursor)")
        var redecodeCursor = start
        let redecoded = try? FrameCodec.decode(reencoded, size: size, cursor: &redecodeCursor)
        check(redecoded == operations, "re-encoded frame decodes to \(String(describing: redecoded)), not \(operations)")
        check(redecodeCursor == decodeCursor, "re-decoded cursor \(redecodeCursor) vs \(decodeCursor)")
        check(reencoded.count <= frame.count, "canonical encoding (\(reencoded.count) B) longer than the input (\(frame.count) B)")
        checkCompaction(drawing)
        if size.width * size.height <= 64 * 64 {
            // Rasterising is only cheap on the small canvases; the live canvas must agree.
            var live = LiveCanvas(drawing: Drawing(size: size))
            if start.isOpen { live.apply(.begin(tool: .pen, color: .black, width: 3, at: start.last)) }
            let liveSummary = try? live.apply(frame: frame)
            check(liveSummary == summary, "LiveCanvas summary \(String(describing: liveSummary)) vs \(summary)")
        }
    default:
        check(false, "acceptance differs: decode \(decoded), validate \(validated), apply \(applied)")
    }

    // The same frame as a one-line stroke log: parses exactly when valid from a fresh cursor.
    if !frame.isEmpty {
        let log = StrokeLog(size: size, word: "fuzz", frames: [.init(at: 7, bytes: frame)])
        var fresh = StrokeCursor()
        let valid = (try? FrameCodec.validate(frame, size: size, cursor: &fresh)) != nil
        let parsed = try? StrokeLog(ndjson: log.ndjson())
        check((parsed != nil) == valid, "stroke log parse \(parsed != nil) vs frame validity \(valid)")
        if let parsed { check(parsed == log, "stroke log changed in its NDJSON round trip") }
    }
}

/// Counts an accepted frame's operations the way `FrameSummary` does.
private func checkAccepted(
    _ frame: [UInt8], operations: [DrawOperation], summary: FrameSummary, start: StrokeCursor, size: CanvasSize
) {
    var points = 0
    var fills = 0
    for operation in operations {
        switch operation {
        case .begin, .pressureBegin: points += 1
        case .points(let run):
            check(!run.isEmpty && run.count <= FrameCodec.maxPointsPerOperation, "POINTS run of \(run.count)")
            points += run.count
        case .pressurePoints(let run):
            check(!run.isEmpty && run.count <= FrameCodec.maxPointsPerOperation, "PRESSURE_POINTS run of \(run.count)")
            check(run.allSatisfy { $0.pressure > 0 }, "a pressure of 0 was accepted")
            points += run.count
        case .fill: fills += 1
        case .end, .undo, .clear: break
        }
    }
    check(summary.operations == operations.count, "summary counts \(summary.operations) ops, decode gave \(operations.count)")
    check(summary.points == points && summary.fills == fills, "summary \(summary) vs \(points) points, \(fills) fills")
}

/// The late-joiner path: compacted frames decode from a fresh cursor and reproduce the drawing.
private func checkCompaction(_ drawing: Drawing) {
    let compacted = drawing.compacted()
    let frames = drawing.compactedFrames()
    var cursor = StrokeCursor()
    var decoded: [DrawOperation] = []
    var replay = Drawing(size: drawing.size)
    for frame in frames {
        check(frame.count <= FrameCodec.defaultMaxFrameBytes, "compacted frame of \(frame.count) bytes")
        guard let operations = try? FrameCodec.decode(frame, size: drawing.size, cursor: &cursor) else {
            check(false, "a compacted frame does not decode: \(frame)")
            return
        }
        decoded += operations
        check((try? replay.apply(frame: frame)) != nil, "a compacted frame is rejected by a fresh drawing")
    }
    check(merged(decoded) == merged(compacted), "compacted frames decode to other operations")
    check(replay.compacted() == compacted, "replaying compacted frames gives another drawing")
    check(replay.pointCount == drawing.pointCount, "point count \(replay.pointCount) vs \(drawing.pointCount)")
}

/// Joins consecutive POINTS (or PRESSURE_POINTS) runs: the encoder may split a long run at
/// 1024 or at a frame edge.
private func merged(_ operations: [DrawOperation]) -> [DrawOperation] {
    var result: [DrawOperation] = []
    for operation in operations {
        if case .points(let run) = operation, case .points(let previous)? = result.last {
            result[result.count - 1] = .points(previous + run)
        } else if case .pressurePoints(let run) = operation, case .pressurePoints(let previous)? = result.last {
            result[result.count - 1] = .pressurePoints(previous + run)
        } else {
            result.append(operation)
        }
    }
    return result
}

private func checkStrokeLog(_ text: [UInt8]) {
    guard let log = try? StrokeLog(ndjson: text) else { return }
    check(log.size.isValid, "parsed a log with an invalid canvas \(log.size)")
    let drawing: Drawing
    do throws(StrokeLogError) {
        drawing = try log.drawing()
    } catch {
        check(false, "a parsed log does not replay: \(error)")
        return
    }
    let again = try? StrokeLog(ndjson: log.ndjson())
    check(again == log, "log changed in its NDJSON round trip")
    if log.size.width * log.size.height <= 256 * 256 {
        checkCompaction(drawing)
    }
}

/// An independent decoder written from the protocol text (section 5.2) alone, as plainly as
/// possible: the differential oracle for `FrameScanner`, which decode, validate and apply
/// all share. Returns the operations and the cursor after them, or nil when the protocol
/// says the frame is invalid.
func referenceDecode(_ bytes: [UInt8], size: CanvasSize, start: StrokeCursor) -> ([DrawOperation], StrokeCursor)? {
    guard !bytes.isEmpty else { return nil }
    var index = 0
    var isOpen = start.isOpen
    var last = (x: Int64(start.last.x), y: Int64(start.last.y))
    var operations: [DrawOperation] = []
    let width = Int64(size.width)
    let height = Int64(size.height)

    func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        index += 1
        return bytes[index - 1]
    }
    // uvarint: LEB128, at most 5 bytes, value within 32 bits.
    func uvarint() -> UInt64? {
        var value: UInt64 = 0
        for group in 0..<5 {
            guard let next = byte() else { return nil }
            value |= UInt64(next & 0x7F) << (7 * group)
            if next & 0x80 == 0 { return value <= UInt64(UInt32.max) ? value : nil }
        }
        return nil
    }
    // svarint: zigzag over 32 bits.
    func svarint() -> Int64? {
        guard let raw = uvarint() else { return nil }
        return (raw & 1) == 0 ? Int64(raw >> 1) : -Int64(raw >> 1) - 1
    }
    func legal(_ x: Int64, _ y: Int64) -> Bool {
        x >= -width && x < 2 * width && y >= -height && y < 2 * height
    }
    func point(_ x: Int64, _ y: Int64) -> Point { Point(x: Int32(x), y: Int32(y)) }

    while index < bytes.count {
        let opcode = bytes[index]
        index += 1
        switch opcode {
        case 0x01:
            guard let toolByte = byte(), toolByte <= 1,
                  let r = byte(), let g = byte(), let b = byte(), let strokeWidth = byte(),
                  (1...64).contains(strokeWidth),
                  let x = svarint(), let y = svarint(), legal(x, y) else { return nil }
            let tool: Tool = toolByte == 0 ? .pen : .eraser
            operations.append(.begin(tool: tool, color: RGB(r: r, g: g, b: b), width: strokeWidth, at: point(x, y)))
            isOpen = true
            last = (x, y)
        case 0x02:
            guard isOpen, let n = uvarint(), (1...1024).contains(n) else { return nil }
            var run: [Point] = []
            for _ in 0..<n {
                guard let dx = svarint(), let dy = svarint() else { return nil }
                last = (last.x + dx, last.y + dy)
                guard legal(last.x, last.y) else { return nil }
                run.append(point(last.x, last.y))
            }
            operations.append(.points(run))
        case 0x07:
            // PRESSURE_BEGIN (docs/PROTOCOL.md 12.4): BEGIN's body with a pressure 1...255
            // after the width.
            guard let toolByte = byte(), toolByte <= 1,
                  let r = byte(), let g = byte(), let b = byte(), let strokeWidth = byte(),
                  (1...64).contains(strokeWidth), let pressure = byte(), pressure > 0,
                  let x = svarint(), let y = svarint(), legal(x, y) else { return nil }
            let tool: Tool = toolByte == 0 ? .pen : .eraser
            operations.append(.pressureBegin(tool: tool, color: RGB(r: r, g: g, b: b), width: strokeWidth, pressure: pressure, at: point(x, y)))
            isOpen = true
            last = (x, y)
        case 0x08:
            // PRESSURE_POINTS: POINTS with a pressure 1...255 after each point.
            guard isOpen, let n = uvarint(), (1...1024).contains(n) else { return nil }
            var run: [PressurePoint] = []
            for _ in 0..<n {
                guard let dx = svarint(), let dy = svarint() else { return nil }
                last = (last.x + dx, last.y + dy)
                guard legal(last.x, last.y), let pressure = byte(), pressure > 0 else { return nil }
                run.append(PressurePoint(point(last.x, last.y), pressure: pressure))
            }
            operations.append(.pressurePoints(run))
        case 0x03:
            guard isOpen else { return nil }
            isOpen = false
            operations.append(.end)
        case 0x04:
            guard let r = byte(), let g = byte(), let b = byte(), let x = uvarint(), let y = uvarint(),
                  x < UInt64(width), y < UInt64(height) else { return nil }
            isOpen = false
            operations.append(.fill(color: RGB(r: r, g: g, b: b), at: Point(x: Int32(x), y: Int32(y))))
        case 0x05:
            isOpen = false
            operations.append(.undo)
        case 0x06:
            isOpen = false
            operations.append(.clear)
        default:
            return nil
        }
    }
    var cursor = start
    cursor.isOpen = isOpen
    // The cursor's last point only moves with BEGIN and POINTS.
    cursor.last = point(last.x, last.y)
    return (operations, cursor)
}
