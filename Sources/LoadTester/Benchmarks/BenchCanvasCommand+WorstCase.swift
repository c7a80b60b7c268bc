import Canvas
import DrawProtocol
import Foundation
import Rooms

extension BenchCanvasCommand {
    /// The worst canvases a drawer can leave within the room's caps (`RoomConfiguration`:
    /// points, strokes and fills, ink), built directly as drawings: what rendering a
    /// snapshot of them costs, and what a late joiner is sent.
    func runWorstCases(size: CanvasSize, checksum: inout Int) {
        let caps = RoomConfiguration()
        let inkBudget = caps.maxDrawingInkAreas * size.width * size.height
        let w = Int32(size.width), h = Int32(size.height)
        print("worst canvases within the caps (\(caps.maxDrawingPoints) points, \(caps.maxDrawingItems) strokes and fills, "
            + "\(caps.maxDrawingInkAreas) canvases of ink):")

        // Width-64 segments bouncing between the far corners of the legal range, until the ink runs out.
        var bomb = Drawing(size: size)
        bomb.apply(.begin(tool: .pen, color: .black, width: 64, at: Point(x: -w + 1, y: -h + 1)))
        var corner = 0 as Int32
        while bomb.pointCount < caps.maxDrawingPoints {
            corner += 1
            let next = corner % 2 == 1 ? Point(x: 2 * w - 1, y: 2 * h - 1 - corner % 50) : Point(x: -w + 1, y: -h + 1 + corner % 50)
            var trial = bomb
            trial.apply(.points([next]))
            guard trial.ink <= inkBudget else { break }
            bomb = trial
        }
        bomb.apply(.end)
        measureWorstCase("coordinate bomb: \(bomb.pointCount) width-64 points across [-w, 2w)", bomb, checksum: &checksum)

        // A fill storm: alternating colours over the whole canvas, one canvas of ink each.
        var fills = Drawing(size: size)
        while fills.ink + size.width * size.height <= inkBudget, fills.visibleItemCount < caps.maxDrawingItems {
            let shade = UInt8(truncatingIfNeeded: fills.visibleItemCount * 37)
            fills.apply(.fill(color: RGB(r: shade, g: 255 &- shade, b: 90), at: Point(x: w / 2, y: h / 2)))
        }
        measureWorstCase("fill storm: \(fills.visibleItemCount) whole-canvas fills", fills, checksum: &checksum)

        // The most points: short width-1 scribbles, 5,000 strokes of 12 points.
        var dense = Drawing(size: size)
        let perStroke = caps.maxDrawingPoints / caps.maxDrawingItems
        for stroke in 0..<caps.maxDrawingItems {
            let x = Int32(stroke * 7 % size.width), y = Int32(stroke * 13 % size.height)
            dense.apply(.begin(tool: .pen, color: .black, width: 1, at: Point(x: x, y: y)))
            dense.apply(.points((1..<perStroke).map { Point(x: x + Int32($0 % 3), y: y + Int32($0)) }))
            dense.apply(.end)
        }
        measureWorstCase("most points: \(dense.visibleItemCount) strokes, \(dense.pointCount) points", dense, checksum: &checksum)
    }

    private func measureWorstCase(_ name: String, _ drawing: Drawing, checksum: inout Int) {
        let repetitions = max(1, min(iterations, 20))
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<repetitions {
            let elapsed = clock.measure { checksum &+= Int(Renderer.render(drawing).pixels[0]) }
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        times.sort()
        let replayBytes = drawing.compactedFrames().reduce(0) { $0 + $1.count }
        let areas = Double(drawing.ink) / Double(drawing.size.width * drawing.size.height)
        print(String(format: "  %@ (%.0f canvases of ink): render min %.1f ms, median %.1f ms; late joiner's replay %d bytes",
                     name, areas, times[0] * 1000, times[times.count / 2] * 1000, replayBytes))
        // Its time-lapse (what `/d/ID.apng` costs), from the compacted log, best of 3.
        let log = StrokeLog(size: drawing.size, frames: drawing.compactedFrames().map { StrokeLog.Frame(at: 0, bytes: $0) })
        var best = Double.infinity
        var output: TimelapseEncoder.Output?
        for _ in 0..<min(3, repetitions) {
            let elapsed = clock.measure { output = try? TimelapseEncoder.render(log) }
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        print(String(format: "    its APNG time-lapse: min %.1f ms (%d frames, %d bytes, %dx%d)", best * 1000,
                     output?.frameCount ?? 0, output?.bytes.count ?? 0, output?.width ?? 0, output?.height ?? 0))
    }
}
