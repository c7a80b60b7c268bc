/// One attempt at a time-lapse: replays the script, samples `frames` states evenly over its
/// steps, and keeps each state as the rectangle that changed since the previous frame.
struct TimelapseRecorder {
    let script: TimelapseScript
    let shape: TimelapseShape
    let frames: Int
    let holdTicks: Int
    let fps: Int
    let plays: Int

    /// The file, or `nil` as soon as it would exceed `maxBytes` (the caller degrades).
    func record(maxBytes: Int) -> TimelapseEncoder.Output? {
        var canvas = LiveCanvas(size: script.size)
        var position = TimelapseScript.Position()
        // What the animation shows so far, in the diff space (canvas or fitted output).
        var shown: Raster?
        var stored: [APNGWriter.Frame] = []
        var bytes = 8 + 25 + 20 + 12
        let scale = shape.postScale
        for index in 1...max(1, frames) {
            // Ceiling, so the last sample is the last step and the first is past the start.
            let target = (index * script.steps + frames - 1) / max(1, frames)
            script.advance(&canvas, &position, to: index == frames ? script.steps : target)
            let current = shape.diffSpace(canvas.raster)
            let frame: APNGWriter.Frame
            if let previous = shown {
                guard let rect = current.changedRect(from: previous) else {
                    stored[stored.count - 1].delayTicks += 1
                    continue
                }
                let image = current.cropped(to: rect).scaled(by: scale)
                frame = APNGWriter.Frame(width: image.width, height: image.height, x: rect.minX * scale,
                                         y: rect.minY * scale, delayTicks: 1,
                                         data: PNGEncoder.compressedScanlines(image))
                shown?.copy(rect, from: current)
            } else {
                let image = current.scaled(by: scale)
                frame = APNGWriter.Frame(width: image.width, height: image.height, x: 0, y: 0, delayTicks: 1,
                                         data: PNGEncoder.compressedScanlines(image))
                shown = current
            }
            bytes += frame.data.count + APNGWriter.frameOverhead
            guard bytes <= maxBytes else { return nil }
            stored.append(frame)
        }
        guard !stored.isEmpty else { return nil }
        stored[stored.count - 1].delayTicks += holdTicks
        let size = shape.output
        let file = APNGWriter.write(width: size.width, height: size.height, frames: stored, fps: fps, plays: plays)
        guard file.count <= maxBytes else { return nil }
        return TimelapseEncoder.Output(bytes: file, frameCount: stored.count, width: size.width, height: size.height)
    }
}
