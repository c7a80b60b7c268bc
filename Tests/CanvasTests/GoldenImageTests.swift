import Foundation
import Testing
@testable import Canvas

/// Pixel fingerprints of a few drawings, checked by eye when recorded (set
/// `CANVAS_GOLDEN_DIR=/some/dir` to get the PNGs): any change to the rasteriser, the
/// compositing or the fill that moves a single byte shows up here.
@Suite("Golden images")
struct GoldenImageTests {
    static func shapes() -> [DrawOperation] {
        let blue = RGB(r: 30, g: 60, b: 200)
        var ops: [DrawOperation] = []
        // A thick slow S curve sampled every ~3 px.
        var curve: [Point] = []
        for step in 0...60 {
            let t = Double(step) / 60
            let x = 20 + 160 * t
            let y = 75 + 45 * (t < 0.5 ? (4 * t * (1 - 2 * t)) : -(4 * (t - 0.5) * (2 * t - 1)))
            curve.append(Point(x: Int32(x.rounded()), y: Int32(y.rounded())))
        }
        ops += [.begin(tool: .pen, color: blue, width: 16, at: curve[0]), .points(Array(curve.dropFirst())), .end]
        // Dots of several widths.
        for (index, width) in [1, 2, 5, 12].enumerated() {
            ops += [.begin(tool: .pen, color: .black, width: UInt8(width), at: Point(x: Int32(30 + index * 20), y: 20)), .end]
        }
        // A closed triangle, filled.
        let triangle = [Point(x: 140, y: 10), Point(x: 190, y: 60), Point(x: 120, y: 55), Point(x: 140, y: 10)]
        ops += [.begin(tool: .pen, color: RGB(r: 200, g: 30, b: 30), width: 3, at: triangle[0]),
                .points(Array(triangle.dropFirst())), .end,
                .fill(color: RGB(r: 250, g: 210, b: 40), at: Point(x: 145, y: 40))]
        // A thin diagonal, an eraser cut, and a stroke coming in from off the canvas.
        ops += [.begin(tool: .pen, color: .black, width: 1, at: Point(x: 5, y: 145)), .points([Point(x: 95, y: 100)]), .end]
        ops += [.begin(tool: .eraser, color: .black, width: 8, at: Point(x: 100, y: 40)), .points([Point(x: 100, y: 140)]), .end]
        ops += [.begin(tool: .pen, color: RGB(r: 0, g: 140, b: 60), width: 24, at: Point(x: -150, y: 160)),
                .points([Point(x: 60, y: 130), Point(x: 399, y: 299)])]
        return ops
    }

    private func check(_ raster: Raster, name: String, expected: UInt64) throws {
        if let directory = ProcessInfo.processInfo.environment["CANVAS_GOLDEN_DIR"] {
            try Data(PNGEncoder.encode(raster.scaled(by: 3))).write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(name).png"))
        }
        let hash = fnv1a(raster.pixels)
        #expect(hash == expected, "\(name): fnv1a 0x\(String(hash, radix: 16, uppercase: true))")
    }

    @Test func shapesDrawing() throws {
        let raster = Renderer.render(Self.shapes(), size: CanvasSize(width: 200, height: 150))
        try check(raster, name: "shapes", expected: 0x3EF9_EE14_B9BD_D052)
    }

    @Test func sampleDrawing() throws {
        let raster = Renderer.render(try SampleDrawing.make(seed: 1).drawing())
        try check(raster, name: "sample-1", expected: 0x3071_2B30_91CF_785D)
        try check(raster.fitted(maxSide: 200), name: "sample-1-small", expected: 0xA271_41A8_C34C_5C83)
    }
}
