import ArgumentParser
import Canvas
import Foundation

/// `drawserver bench-canvas`: times the drawing core on a realistic 800x600 drawing
/// (`SampleDrawing`), so regressions in the per-frame and per-canvas paths show up as numbers.
package struct BenchCanvasCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-canvas",
        abstract: "Benchmark rendering, PNG and APNG encoding, frame decoding and compaction.",
        discussion: "Build with -c release for meaningful figures."
    )

    @Option(help: "Timed repetitions of each measurement (min and median are reported).")
    var iterations: Int = 200

    @Option(help: "Seed of the sample drawing.")
    var seed: UInt64 = 1

    package func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1.") }
    }

    package func run() throws {
        let log = SampleDrawing.make(seed: seed)
        let drawing: Drawing
        do {
            drawing = try log.drawing()
        } catch {
            throw ValidationError("sample drawing rejected: \(error)")
        }
        var ops: [DrawOperation] = []
        var cursor = StrokeCursor()
        var points = 0
        for frame in log.frames {
            points += try FrameCodec.validate(frame.bytes, size: log.size, cursor: &cursor).points
        }
        cursor = StrokeCursor()
        for frame in log.frames {
            ops += try FrameCodec.decode(frame.bytes, size: log.size, cursor: &cursor)
        }
        let wireBytes = log.frames.reduce(0) { $0 + $1.bytes.count }
        let raster = Renderer.render(ops, size: log.size)
        let png = PNGEncoder.encode(raster)
        var sink = 0

        print("bench-canvas: \(log.size) sample seed \(seed), \(log.frames.count) frames, \(ops.count) ops, "
            + "\(points) points, \(drawing.visibleItemCount) visible items, \(iterations) iterations")
        let render = measure { sink &+= Int(Renderer.render(ops, size: log.size).pixels[0]) }
        report("render full log (ops -> raster)", render, target: "< 5 ms")
        let pngTime = measure { sink &+= PNGEncoder.encode(raster).count }
        report("PNG encode", pngTime, target: "< 5 ms")
        // The time-lapse replays the whole log, so it gets fewer repetitions.
        let timelapse = try TimelapseEncoder.render(log)
        let timelapseTime = measure(times: min(iterations, 20)) {
            sink &+= (try? TimelapseEncoder.encode(log).count) ?? 0
        }
        report("APNG time-lapse (\(timelapse.frameCount) frames, \(timelapse.bytes.count) bytes)", timelapseTime,
               target: "<= 100 ms")
        let validate = measure {
            var cursor = StrokeCursor()
            for frame in log.frames {
                sink &+= (try? FrameCodec.validate(frame.bytes, size: log.size, cursor: &cursor).points) ?? 0
            }
        }
        reportRate("validate throughput", validate, points: points)
        let decode = measure {
            var cursor = StrokeCursor()
            for frame in log.frames {
                sink &+= (try? FrameCodec.decode(frame.bytes, size: log.size, cursor: &cursor).count) ?? 0
            }
        }
        reportRate("decode throughput", decode, points: points)
        let replay = measure {
            var replayed = Drawing(size: log.size)
            for frame in log.frames {
                sink &+= (try? replayed.apply(frame: frame.bytes).points) ?? 0
            }
        }
        reportRate("Drawing.apply(frame:) throughput", replay, points: points)
        let live = measure {
            var canvas = LiveCanvas(size: log.size)
            for frame in log.frames {
                sink &+= (try? canvas.apply(frame: frame.bytes).points) ?? 0
            }
        }
        report("LiveCanvas, all frames incrementally", live, target: nil)
        let compaction = measure { sink &+= drawing.compacted().count }
        report("compaction (compacted())", compaction, target: nil)
        let compactFrames = measure { sink &+= drawing.compactedFrames().count }
        report("compaction to frames (compactedFrames())", compactFrames, target: nil)
        let compactBytes = drawing.compactedFrames().reduce(0) { $0 + $1.count }
        print(String(format: "wire size: %.2f bytes/point (%d bytes for %d points); compacted frames %d bytes",
                     Double(wireBytes) / Double(max(points, 1)), wireBytes, points, compactBytes))
        print("PNG size: \(png.count) bytes (\(raster.width)x\(raster.height) RGB)")
        runWorstCases(size: log.size, checksum: &sink)
        print("(checksum \(sink & 0xFFFF))")
    }

    /// Per-iteration wall times in seconds, after one warm-up run.
    private func measure(times: Int? = nil, _ body: () -> Void) -> [Double] {
        body()
        let clock = ContinuousClock()
        return (0..<(times ?? iterations)).map { _ in
            let elapsed = clock.measure(body)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }.sorted()
    }

    private func report(_ name: String, _ times: [Double], target: String?) {
        let line = String(format: "%@: min %.3f ms, median %.3f ms", name, times[0] * 1000, times[times.count / 2] * 1000)
        print(target.map { "\(line) (target \($0))" } ?? line)
    }

    private func reportRate(_ name: String, _ times: [Double], points: Int) {
        let best = Double(points) / times[0] / 1e6
        let median = Double(points) / times[times.count / 2] / 1e6
        print(String(format: "%@: %.1f M points/s best, %.1f M points/s median (%.3f ms for %d points)",
                     name, best, median, times[times.count / 2] * 1000, points))
    }
}
