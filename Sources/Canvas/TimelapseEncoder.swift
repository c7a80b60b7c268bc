/// Renders a stroke log as an animated PNG (APNG) time-lapse of how the drawing was made.
///
/// Frames are sampled evenly over the drawing's work, not over time, so the drawer's pauses
/// cost no frames: every operation counts one step, except POINTS, whose points count one
/// step each (one long POINTS would otherwise appear all at once). The first frame is the
/// whole canvas (the IDAT, so viewers without APNG support show it); every later frame is
/// only the rectangle that changed since the one before (dispose op none, blend op source),
/// which keeps a time-lapse a few times the size of the final PNG. A sample that changes no
/// pixel lengthens the previous frame instead. The final frame is held for
/// `holdSeconds` so a looping animation rests on the finished drawing; the composed last
/// frame is, byte for byte, the raster `PNGEncoder.encode` gets for the same scale.
///
/// Over `maxBytes`, the encoder degrades: it halves the frame count down to `minFrames`, then
/// halves the output's longer side, until the file fits.
public enum TimelapseEncoder {
    /// What a time-lapse may cost; every bound is an upper limit.
    public struct Configuration: Sendable, Equatable {
        /// Longest playing time of one loop, the final hold included.
        public var seconds: Double = 10
        /// Frames per second while drawing; frame delays are whole ticks of `1/fps` s.
        public var fps: Int = 12
        /// Most frames in the file.
        public var maxFrames: Int = 120
        /// Largest file; the encoder degrades until it fits.
        public var maxBytes: Int = 2_000_000
        /// How long the last frame stays, taken out of `seconds` (at most half of it).
        public var holdSeconds: Double = 1
        /// Frames kept before degrading by size instead of frame count.
        public var minFrames: Int = 12
        /// Nearest-neighbour upscale, clamped to `Raster.scaleRange`.
        public var scale: Int = 1
        /// Area-average downscale so the longer side is at most this (after `scale`), as the
        /// PNG routes do.
        public var maxSide: Int?

        /// The defaults (10 s, 12 fps, 120 frames, 2 MB, 1 s hold).
        public init() {}

        /// Accepted ranges, for command-line and query validation.
        public static let secondsRange = 0.1...60.0
        public static let fpsRange = 1...60
        public static let maxFramesRange = 1...1000
    }

    /// The finished file and what it took.
    public struct Output: Sendable {
        /// The APNG.
        public var bytes: [UInt8]
        /// Animation frames in the file.
        public var frameCount: Int
        /// The pixel size of every composed frame.
        public var width: Int
        public var height: Int
    }

    /// The APNG bytes of `log`; a frame the codec rejects names its line, as `drawing()` does.
    public static func encode(_ log: StrokeLog, configuration: Configuration = .init()) throws(StrokeLogError) -> [UInt8] {
        try render(log, configuration: configuration).bytes
    }

    /// The APNG with its frame count and size.
    public static func render(_ log: StrokeLog, configuration: Configuration = .init()) throws(StrokeLogError) -> Output {
        let script = try TimelapseScript(log)
        let plan = Plan(configuration, steps: script.steps)
        var frames = plan.frames
        var maxSide = configuration.maxSide
        let scale = min(max(configuration.scale, Raster.scaleRange.lowerBound), Raster.scaleRange.upperBound)
        while true {
            let shape = TimelapseShape(size: log.size, scale: scale, maxSide: maxSide)
            let budget = configuration.maxBytes
            if let output = TimelapseRecorder(script: script, shape: shape, frames: frames,
                                              holdTicks: plan.holdTicks, fps: plan.fps, plays: 0)
                .record(maxBytes: budget) {
                return output
            }
            if frames > plan.minFrames {
                frames = max(plan.minFrames, frames / 2)
            } else if shape.longerSide > 16 {
                maxSide = shape.longerSide / 2
            } else {
                // Cannot happen for any legal canvas (16 px of RGB is far below any budget),
                // but an answer that is too large beats no answer.
                return TimelapseRecorder(script: script, shape: shape, frames: 1,
                                         holdTicks: plan.holdTicks, fps: plan.fps, plays: 0)
                    .record(maxBytes: .max) ?? Output(bytes: [], frameCount: 0, width: 0, height: 0)
            }
        }
    }

    /// Frame count and timing from the configuration, sanitised so no value can trap.
    struct Plan {
        let fps: Int
        let frames: Int
        let minFrames: Int
        let holdTicks: Int

        init(_ configuration: Configuration, steps: Int) {
            fps = min(max(configuration.fps, Configuration.fpsRange.lowerBound), Configuration.fpsRange.upperBound)
            let seconds = min(max(configuration.seconds, Configuration.secondsRange.lowerBound),
                              Configuration.secondsRange.upperBound)
            let hold = min(max(configuration.holdSeconds, 0), seconds / 2)
            holdTicks = Int((hold * Double(fps)).rounded(.down))
            let totalTicks = Int((seconds * Double(fps)).rounded(.down))
            let cap = min(max(configuration.maxFrames, 1), Configuration.maxFramesRange.upperBound)
            // Each frame is at least one tick; the hold comes on top of the last one.
            frames = max(1, min(cap, steps, totalTicks - holdTicks))
            minFrames = min(frames, max(1, configuration.minFrames))
        }
    }
}
