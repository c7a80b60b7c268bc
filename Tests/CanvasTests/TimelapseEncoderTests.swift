import Foundation
import Testing
@testable import Canvas

@Suite("APNG time-lapse encoder")
struct TimelapseEncoderTests {
    private func finalRaster(_ log: StrokeLog) throws -> Raster {
        Renderer.render(try log.drawing())
    }

    @Test func aRealDrawingHasValidChunksSequenceNumbersAndBounds() throws {
        let log = SampleDrawing.make(seed: 1)
        let output = try TimelapseEncoder.render(log)
        let animation = try APNGTestDecoder.decode(output.bytes)
        #expect(animation.width == 800 && animation.height == 600)
        #expect(animation.controls.count == output.frameCount)
        #expect(animation.controls.count > 60 && animation.controls.count <= 120)
        #expect(animation.seconds <= 10.0001)
        #expect(animation.plays == 0)
        #expect(output.bytes.count <= 2_000_000)
        // Sub-rectangles: most frames are far smaller than the canvas.
        let small = animation.controls.dropFirst().filter { $0.width * $0.height < 800 * 600 / 4 }
        #expect(small.count > animation.controls.count / 2)
        // A sample that changed nothing is merged, so consecutive frames always differ.
        for (before, after) in zip(animation.composed, animation.composed.dropFirst()) {
            #expect(before != after)
        }
    }

    @Test func theLastFrameIsThePNGPixelForPixel() throws {
        for seed: UInt64 in [1, 2, 3] {
            let log = SampleDrawing.make(seed: seed)
            let animation = try APNGTestDecoder.decode(try TimelapseEncoder.encode(log))
            let png = try PNGTestDecoder.decode(PNGEncoder.encode(try finalRaster(log)))
            #expect(animation.composed.last == png.pixels)
        }
    }

    @Test func scaleAndMaxSideMatchThePNGAtTheSameSize() throws {
        let log = SampleDrawing.make(seed: 4)
        var configuration = TimelapseEncoder.Configuration()
        configuration.scale = 2
        let scaled = try APNGTestDecoder.decode(try TimelapseEncoder.encode(log, configuration: configuration))
        #expect(scaled.width == 1600 && scaled.height == 1200)
        #expect(scaled.composed.last == (try finalRaster(log)).scaled(by: 2).pixels)

        configuration = TimelapseEncoder.Configuration()
        configuration.maxSide = 300
        let fitted = try APNGTestDecoder.decode(try TimelapseEncoder.encode(log, configuration: configuration))
        #expect(fitted.width == 300 && fitted.height == 225)
        #expect(fitted.composed.last == (try finalRaster(log)).fitted(maxSide: 300).pixels)
    }

    @Test func anEmptyLogIsOneWhiteFrame() throws {
        for log in [StrokeLog(size: CanvasSize(width: 64, height: 48)),
                    StrokeLog(size: CanvasSize(width: 64, height: 48), frames: [.init(at: 5, bytes: frame([.undo, .clear]))])] {
            let animation = try APNGTestDecoder.decode(try TimelapseEncoder.encode(log))
            #expect(animation.controls.count == 1)
            #expect(animation.composed.last == Raster(size: log.size).pixels)
            #expect(animation.seconds > 0 && animation.seconds <= 10)
        }
    }

    /// A single long POINTS still animates, and a ten-minute pause costs no frames.
    @Test func framesAreSampledOverTheWorkNotTheClock() throws {
        let points: [Point] = (1...300).map { (step: Int) -> Point in
            let x = Int32(10 + step)
            let y = Int32(10 + step / 2)
            return Point(x: x, y: y)
        }
        let log = StrokeLog(size: CanvasSize(width: 400, height: 300), frames: [
            .init(at: 0, bytes: frame([.begin(tool: .pen, color: .black, width: 3, at: Point(x: 10, y: 10)), .points(points)])),
            .init(at: 600_000, bytes: frame([.end, .fill(color: RGB(r: 0, g: 0, b: 255), at: Point(x: 390, y: 10))])),
        ])
        let animation = try APNGTestDecoder.decode(try TimelapseEncoder.encode(log))
        #expect(animation.controls.count > 80)
        let middle = animation.composed[animation.composed.count / 2]
        #expect(middle != Raster(size: log.size).pixels && middle != animation.composed.last)
        #expect(animation.composed.last == (try finalRaster(log)).pixels)
    }

    @Test func secondsFpsAndFrameLimitsHold() throws {
        let log = SampleDrawing.make(seed: 1)
        var configuration = TimelapseEncoder.Configuration()
        configuration.seconds = 3
        configuration.fps = 20
        configuration.maxFrames = 40
        let animation = try APNGTestDecoder.decode(try TimelapseEncoder.encode(log, configuration: configuration))
        #expect(animation.controls.count <= 40)
        #expect(animation.seconds <= 3.0001)
        #expect(animation.controls.allSatisfy { $0.delayDenominator == 20 })
    }

    @Test(arguments: [400_000, 100_000, 20_000])
    func aTightByteBudgetDegradesButStillEndsOnTheDrawing(maxBytes: Int) throws {
        let log = SampleDrawing.make(seed: 1)
        var configuration = TimelapseEncoder.Configuration()
        configuration.maxBytes = maxBytes
        let output = try TimelapseEncoder.render(log, configuration: configuration)
        #expect(output.bytes.count <= maxBytes)
        let animation = try APNGTestDecoder.decode(output.bytes)
        let final = try finalRaster(log)
        let expected = max(output.width, output.height) < 800 ? final.fitted(maxSide: max(output.width, output.height)) : final
        #expect(animation.composed.last == expected.pixels)
        #expect(animation.controls.count >= 1)
    }

    @Test func aRejectedFrameNamesItsLine() throws {
        let log = StrokeLog(size: CanvasSize(width: 64, height: 48), frames: [
            .init(at: 0, bytes: frame([.begin(tool: .pen, color: .black, width: 2, at: Point(x: 1, y: 1))])),
            .init(at: 10, bytes: [0xFF, 0x00]),
        ])
        #expect(throws: StrokeLogError.self) { try TimelapseEncoder.encode(log) }
        do {
            _ = try TimelapseEncoder.encode(log)
        } catch {
            #expect(error.line == 3)
        }
    }
}
