import Foundation
import Testing
@testable import Canvas

/// Pillow, an APNG decoder written by other people, must read the time-lapse: frame count,
/// size, and a last frame equal to the PNG. CI installs Pillow (scripts/setup.d/10-browser);
/// without it locally the test shows as skipped with the reason.
@Suite("APNG time-lapse read by Pillow")
struct TimelapsePillowTests {
    static let pillowInstalled: Bool = run(["python3", "-c", "import PIL"]).status == 0

    private static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `run` on a thread of its own: waiting for Python on the test's task would hold one of
    /// the few threads every other test's tasks share.
    private static func runOffThePool(_ arguments: [String]) async -> (status: Int32, output: String) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: run(arguments)) }.start()
        }
    }

    @Test(.enabled(if: pillowInstalled, "Pillow is not installed: python3 -m pip install pillow"))
    func pillowReadsTheFramesAndTheLastOneIsThePNG() async throws {
        let log = SampleDrawing.make(seed: 1)
        let output = try TimelapseEncoder.render(log)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timelapse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let apng = directory.appendingPathComponent("t.apng").path
        let png = directory.appendingPathComponent("t.png").path
        try Data(output.bytes).write(to: URL(fileURLWithPath: apng))
        try Data(PNGEncoder.encode(Renderer.render(try log.drawing()))).write(to: URL(fileURLWithPath: png))
        let script = """
            import sys
            from PIL import Image
            animation = Image.open(sys.argv[1])
            still = Image.open(sys.argv[2]).convert("RGB")
            frames = animation.n_frames
            total = 0
            for index in range(frames):
                animation.seek(index)
                total += animation.info.get("duration", 0)
            last = animation.convert("RGB")
            print(frames, animation.is_animated, animation.size[0], animation.size[1], int(round(total)),
                  last.tobytes() == still.tobytes())
            """
        let result = await Self.runOffThePool(["python3", "-c", script, apng, png])
        #expect(result.status == 0, "\(result.output)")
        let fields = result.output.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(fields == ["\(output.frameCount)", "True", "800", "600", fields.count > 4 ? fields[4] : "?", "True"])
        if fields.count > 4, let milliseconds = Int(fields[4]) {
            #expect(milliseconds > 0 && milliseconds <= 10_000)
        }
    }
}
