/// A realistic, deterministic drawing for benchmarks and tests: a landscape of about 40
/// strokes and ~2,500 points, widths 2 to 16, drawn like a person with a mouse would.
///
/// Strokes are smooth pen paths (a heading that turns gradually) sampled at a pointer rate
/// of 60 to 120 Hz at 300 to 700 px/s, batched into frames every ~33 ms as a browser client
/// sends them, with pauses between strokes. It includes two fills (the sun and the sky), an
/// eraser stroke and an undone stroke. Only integer and IEEE arithmetic plus `sqrt` are used,
/// so a seed gives the same bytes on every platform.
public enum SampleDrawing {
    /// The log of the drawing for `seed`, on the standard 800x600 canvas, word "house".
    public static func make(seed: UInt64) -> StrokeLog {
        var rng = SplitMix64(seed: seed)
        var recorder = SampleRecorder(size: .standard)
        let scene = SampleScene(size: .standard)

        recorder.wait(rng.uniform(400...900))
        recorder.stroke(color: RGB(r: 40, g: 110, b: 40), width: 4,
                        points: scene.line(from: (-20, 400), to: (820, 392), step: 7, rng: &rng), rate: 120)

        let sun = (rng.uniform(600...680), rng.uniform(100...140))
        pause(&recorder, &rng)
        recorder.stroke(color: RGB(r: 240, g: 150, b: 20), width: 6,
                        points: scene.loop(center: sun, radius: 55, step: 5), rate: 90)
        pause(&recorder, &rng)
        recorder.action(.fill(color: RGB(r: 255, g: 220, b: 60), at: scene.point(sun)))
        pause(&recorder, &rng)
        recorder.action(.fill(color: RGB(r: 160, g: 205, b: 255), at: Point(x: 20, y: 20)))

        let brown = RGB(r: 120, g: 70, b: 30)
        let corners: [(Double, Double)] = [(150, 260), (330, 262), (332, 398), (148, 400)]
        for index in corners.indices {
            pause(&recorder, &rng)
            let next = corners[(index + 1) % corners.count]
            recorder.stroke(color: brown, width: 5,
                            points: scene.line(from: corners[index], to: next, step: 6, rng: &rng),
                            rate: rng.uniform(60...120))
        }
        let red = RGB(r: 200, g: 40, b: 40)
        for (from, to) in [((140.0, 265.0), (240.0, 180.0)), ((240.0, 180.0), (340.0, 265.0))] {
            pause(&recorder, &rng)
            recorder.stroke(color: red, width: 6, points: scene.line(from: from, to: to, step: 6, rng: &rng), rate: 90)
        }

        pause(&recorder, &rng)
        recorder.stroke(color: .black, width: 10, points: scene.wander(count: 40, rng: &rng), rate: 90)
        recorder.wait(rng.uniform(300...600))
        recorder.action(.undo)

        let palette = [
            RGB(r: 20, g: 20, b: 20), RGB(r: 30, g: 120, b: 30), RGB(r: 60, g: 160, b: 60),
            RGB(r: 90, g: 50, b: 20), RGB(r: 30, g: 60, b: 200), RGB(r: 220, g: 90, b: 160),
            RGB(r: 250, g: 200, b: 0), RGB(r: 110, g: 110, b: 110),
        ]
        for index in 0..<30 {
            pause(&recorder, &rng)
            let width = UInt8(2 + (index * 7 + rng.int(0...2)) % 15)
            recorder.stroke(color: palette[rng.int(0...(palette.count - 1))], width: width,
                            points: scene.wander(count: rng.int(40...100), rng: &rng),
                            rate: rng.uniform(60...120))
        }

        pause(&recorder, &rng)
        recorder.stroke(tool: .eraser, color: .black, width: 16, points: scene.wander(count: 40, rng: &rng), rate: 90)
        return StrokeLog(size: .standard, word: "house", frames: recorder.frames)
    }

    /// The think time between strokes.
    private static func pause(_ recorder: inout SampleRecorder, _ rng: inout SplitMix64) {
        recorder.wait(rng.uniform(150...700))
    }
}
