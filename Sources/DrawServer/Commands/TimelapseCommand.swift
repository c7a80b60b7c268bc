import ArgumentParser
import Canvas
import Foundation

/// `drawserver timelapse LOG.ndjson -o OUT.png`: replays a stroke log (protocol section 7)
/// into an animated PNG time-lapse, with the validation and errors of `drawserver render`.
package struct TimelapseCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "timelapse",
        abstract: "Render a stroke log (NDJSON) as an animated PNG (APNG) time-lapse.",
        discussion: """
            Frames are sampled evenly over the drawing's operations (pauses cost nothing); \
            the last frame equals `drawserver render`'s PNG at the same --scale/--max-side. \
            Files over --max-bytes get fewer frames, then a smaller size. A log line the \
            codec rejects is reported with its line number and nothing is written.
            """
    )

    @Argument(help: "The stroke log to replay (NDJSON, protocol section 7).")
    var log: String

    @Option(name: .shortAndLong, help: "The image to write; .png or .apng.")
    var output: String

    @Option(help: "Longest playing time in seconds, the 1 s hold on the last frame included.")
    var seconds: Double = TimelapseEncoder.Configuration().seconds

    @Option(help: "Frames per second.")
    var fps: Int = TimelapseEncoder.Configuration().fps

    @Option(help: "Most frames.")
    var max: Int = TimelapseEncoder.Configuration().maxFrames

    @Option(help: "Integer nearest-neighbour upscale, 1 to 4.")
    var scale: Int = 1

    @Option(name: .customLong("max-side"), help: "Downscale (area average) so the longer side is at most this many pixels.")
    var maxSide: Int?

    @Option(name: .customLong("max-bytes"), help: "Largest file in bytes; degrade until it fits.")
    var maxBytes: Int = TimelapseEncoder.Configuration().maxBytes

    package func validate() throws {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard ext == "png" || ext == "apng" else {
            throw ValidationError("the output must end in .png or .apng: \(output)")
        }
        let limits = TimelapseEncoder.Configuration.self
        guard limits.secondsRange.contains(seconds) else {
            throw ValidationError("--seconds must be between \(limits.secondsRange.lowerBound) and \(limits.secondsRange.upperBound), got \(seconds).")
        }
        guard limits.fpsRange.contains(fps) else {
            throw ValidationError("--fps must be between \(limits.fpsRange.lowerBound) and \(limits.fpsRange.upperBound), got \(fps).")
        }
        guard seconds * Double(fps) >= 1 else {
            throw ValidationError("--seconds times --fps must allow at least one frame, got \(seconds) s at \(fps) fps.")
        }
        guard limits.maxFramesRange.contains(max) else {
            throw ValidationError("--max must be between \(limits.maxFramesRange.lowerBound) and \(limits.maxFramesRange.upperBound), got \(max).")
        }
        guard Raster.scaleRange.contains(scale) else {
            throw ValidationError("--scale must be between 1 and 4, got \(scale).")
        }
        if let maxSide, maxSide < 1 {
            throw ValidationError("--max-side must be at least 1, got \(maxSide).")
        }
        guard maxBytes >= 1024 else {
            throw ValidationError("--max-bytes must be at least 1024, got \(maxBytes).")
        }
    }

    package func run() throws {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        } catch {
            throw RenderCommand.Failure(description: "cannot read \(log): \(error.localizedDescription)")
        }
        var configuration = TimelapseEncoder.Configuration()
        configuration.seconds = seconds
        configuration.fps = fps
        configuration.maxFrames = max
        configuration.scale = scale
        configuration.maxSide = maxSide
        configuration.maxBytes = maxBytes
        let timelapse: TimelapseEncoder.Output
        do throws(StrokeLogError) {
            timelapse = try TimelapseEncoder.render(try StrokeLog(ndjson: [UInt8](bytes)), configuration: configuration)
        } catch {
            throw RenderCommand.Failure(description: "\(log): line \(error.line): \(error.message)")
        }
        try RenderCommand.writeAtomically(timelapse.bytes, to: output)
        print("\(output): \(timelapse.frameCount) frames, \(timelapse.width)x\(timelapse.height), \(timelapse.bytes.count) bytes")
    }
}
