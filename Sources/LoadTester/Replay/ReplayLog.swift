import Canvas
import Foundation
import NIOCore

/// A stroke log ready to replay: each frame's bytes in a `ByteBuffer` (shared by every
/// room replaying it), its operations' fingerprints, and its offset scaled by `--speed`.
struct ReplayLog: Sendable {
    struct Frame: Sendable {
        /// Nanoseconds after the pass starts, already divided by the speed.
        var offset: UInt64
        var buffer: ByteBuffer
        var fingerprints: [UInt64]
    }

    var name: String
    var size: CanvasSize
    var frames: [Frame]
    var operations: Int

    /// Nanoseconds from the pass start to the last frame.
    var passNanoseconds: UInt64 { frames.last?.offset ?? 0 }

    init(name: String, log: StrokeLog, speed: Double) {
        self.name = name
        size = log.size
        frames = log.frames.map { frame in
            Frame(
                offset: UInt64((Double(frame.at) * 1_000_000 / speed).rounded()),
                buffer: ByteBuffer(bytes: frame.bytes),
                fingerprints: OpFingerprints.of(frame.bytes).fingerprints
            )
        }
        operations = frames.reduce(0) { $0 + $1.fingerprints.count }
    }

    static func load(path: String, speed: Double) throws -> ReplayLog {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReplayError.badLog("cannot read \(path)")
        }
        let log: StrokeLog
        do {
            log = try StrokeLog(ndjson: [UInt8](data))
        } catch {
            throw ReplayError.badLog("\(path): line \(error.line): \(error.message)")
        }
        guard !log.frames.isEmpty else { throw ReplayError.badLog("\(path) has no frames") }
        return ReplayLog(name: URL(fileURLWithPath: path).lastPathComponent, log: log, speed: speed)
    }
}

/// `--generate-log`: stroke logs from `SampleDrawing` (the Canvas module's documented
/// generator of human-like strokes at pointer rate).
enum ReplayLogGenerator {
    /// The sample drawing for `seed`, optionally re-timed to one frame every `intervalMs`
    /// (pauses removed: a drawer sending at a steady frame rate, e.g. 16.67 ms for 60 per
    /// second) and cut after `maxFrames` frames at a point where no stroke is open.
    static func make(seed: UInt64, intervalMs: Double?, maxFrames: Int?) -> StrokeLog {
        var log = SampleDrawing.make(seed: seed)
        if let maxFrames, maxFrames < log.frames.count {
            var cursor = StrokeCursor()
            var lastClosed = 0
            for (index, frame) in log.frames.enumerated() {
                _ = try? FrameCodec.validate(frame.bytes, size: log.size, cursor: &cursor)
                if index >= maxFrames { break }
                if !cursor.isOpen { lastClosed = index + 1 }
            }
            log.frames = Array(log.frames.prefix(max(1, lastClosed)))
        }
        if let intervalMs {
            for index in log.frames.indices {
                log.frames[index].at = Int((Double(index) * intervalMs).rounded())
            }
        }
        return log
    }
}
