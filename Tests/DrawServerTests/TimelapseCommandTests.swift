import Canvas
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

@Suite("drawserver timelapse", .timeLimit(.minutes(1)))
struct TimelapseCommandTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timelapse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func writesTheSameAPNGAsTheEncoder() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = SampleDrawing.make(seed: 1)
        let input = directory.appendingPathComponent("log.ndjson").path
        let output = directory.appendingPathComponent("out.png").path
        try log.ndjson().write(toFile: input, atomically: true, encoding: .utf8)
        let (status, text) = try await ServerProcess.run(["timelapse", input, "-o", output, "--seconds", "4", "--fps", "10", "--max", "30"])
        #expect(status == 0, "\(text)")
        var configuration = TimelapseEncoder.Configuration()
        configuration.seconds = 4
        configuration.fps = 10
        configuration.maxFrames = 30
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(written == (try TimelapseEncoder.encode(log, configuration: configuration)))
        #expect(text.contains("frames"))
    }

    @Test func aBadLineIsReportedAndNothingIsWritten() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("bad.ndjson").path
        let output = directory.appendingPathComponent("out.apng").path
        let good = StrokeLog(size: .standard, frames: [.init(at: 0, bytes: strokeBytes(from: Point(x: 1, y: 1), to: Point(x: 50, y: 50)))])
        try (good.ndjson() + "{\"at\":5,\"ops\":\"/wA=\"}\n").write(toFile: input, atomically: true, encoding: .utf8)
        let (status, text) = try await ServerProcess.run(["timelapse", input, "-o", output])
        #expect(status != 0)
        #expect(text.contains("line 3"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: output))

        for arguments in [["--fps", "0"], ["--seconds", "0"], ["--seconds", "0.5", "--fps", "1"], ["--max", "0"], ["--scale", "5"]] {
            let (refused, message) = try await ServerProcess.run(["timelapse", input, "-o", output] + arguments)
            #expect(refused != 0, "\(arguments): \(message)")
        }
        let (wrongExtension, _) = try await ServerProcess.run(["timelapse", input, "-o", directory.appendingPathComponent("x.gif").path])
        #expect(wrongExtension != 0)
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
