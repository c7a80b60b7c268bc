import Canvas
import DrawProtocol
import Foundation
import Rooms

extension BotLibrary {
    /// The sample drawings shipped with the server (`Resources/bot-drawings.json`, written
    /// by `scripts/make-bot-drawings.py`), so bots can draw from the first game on a fresh
    /// install. Empty when the resource is missing (a packaging mistake), never a crash.
    public static let samples: BotLibrary = {
        for directory in resourceDirectories {
            let url = directory.appendingPathComponent("bot-drawings.json")
            guard let data = try? Data(contentsOf: url), let library = try? BotLibrary(samplesJSON: Array(data)) else { continue }
            return library
        }
        return BotLibrary()
    }()

    /// Reads the sample format: `{"w","h","drawings":[{"words":{"en":"sun",...},
    /// "strokes":[{"color":"#rrggbb","width":8,"points":[[x,y],...],"ms":600}]}]}`.
    /// Each stroke becomes frames of a few points each, timed over its `ms`, as a person's
    /// pen would send them.
    public init(samplesJSON bytes: [UInt8]) throws(SampleError) {
        self.init()
        guard case .object(let root)? = JSONValue.parse(bytes),
              case .number(let w)? = root["w"], case .number(let h)? = root["h"],
              case .array(let items)? = root["drawings"] else { throw SampleError("not a bot drawings document") }
        let size = CanvasSize(width: Int(w), height: Int(h))
        for item in items {
            guard case .object(let drawing) = item, case .object(let words)? = drawing["words"],
                  case .array(let strokes)? = drawing["strokes"] else { throw SampleError("a drawing without words or strokes") }
            let log = try Self.strokeLog(strokes, size: size)
            for (language, word) in words {
                guard case .string(let word) = word else { continue }
                var named = log
                named.word = word
                add(named, word: word, language: language)
            }
        }
    }

    public struct SampleError: Error, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Points per frame of a replayed sample stroke.
    static let pointsPerFrame = 6
    /// Pause between two strokes, milliseconds.
    static let strokeGapMs = 300

    static func strokeLog(_ strokes: [JSONValue], size: CanvasSize) throws(SampleError) -> StrokeLog {
        var log = StrokeLog(size: size)
        var cursor = StrokeCursor()
        var at = 400
        for stroke in strokes {
            guard case .object(let s) = stroke, case .string(let hex)? = s["color"], let color = rgb(hex),
                  case .number(let rawWidth)? = s["width"], case .array(let rawPoints)? = s["points"] else {
                throw SampleError("a stroke needs color, width and points")
            }
            let points = rawPoints.compactMap { value -> Point? in
                guard case .array(let xy) = value, xy.count == 2, case .number(let x) = xy[0], case .number(let y) = xy[1] else { return nil }
                return Point(x: Int32(max(0, min(Double(size.width - 1), x))), y: Int32(max(0, min(Double(size.height - 1), y))))
            }
            guard let first = points.first else { continue }
            var ms = 600
            if case .number(let given)? = s["ms"] { ms = max(50, Int(given)) }
            let rest = Array(points.dropFirst())
            let chunks = stride(from: 0, to: max(rest.count, 1), by: pointsPerFrame).map { Array(rest[$0..<min($0 + pointsPerFrame, rest.count)]) }
            let width = UInt8(max(Double(FrameCodec.widthRange.lowerBound), min(Double(FrameCodec.widthRange.upperBound), rawWidth)))
            for (index, chunk) in chunks.enumerated() {
                var ops: [DrawOperation] = []
                if index == 0 { ops.append(.begin(tool: .pen, color: color, width: width, at: first)) }
                if !chunk.isEmpty { ops.append(.points(chunk)) }
                if index == chunks.count - 1 { ops.append(.end) }
                log.frames.append(StrokeLog.Frame(at: at, bytes: FrameCodec.encode(ops, cursor: &cursor)))
                at += ms / chunks.count
            }
            at += strokeGapMs
        }
        return log
    }

    static func rgb(_ hex: String) -> RGB? {
        guard hex.hasPrefix("#"), hex.count == 7, let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        return RGB(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    /// Where SwiftPM puts this module's resources (searched by hand, as `WordList` does:
    /// `Bundle.module` aborts the process when the folder is missing).
    static var resourceDirectories: [URL] {
        let folder = "drawserver_Bots.resources"
        var directories = [Bundle.main.bundleURL.appendingPathComponent(folder)]
        if let executable = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            directories.append(url.appendingPathComponent(folder))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.lastPathComponent == folder {
            directories.append(bundle.bundleURL)
        }
        return directories
    }
}
