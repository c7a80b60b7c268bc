import ArgumentParser
import Canvas
import Foundation

/// `drawserver render LOG.ndjson -o OUT.png`: replays a stroke log (protocol section 7) into
/// a PNG or PPM, for moderation, bug reports and checking load-test logs by eye.
package struct RenderCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a stroke log (NDJSON) to a PNG or PPM image.",
        discussion: """
            The image format follows the output extension (.png or .ppm). A log line the \
            codec rejects is reported with its line number and nothing is written.
            """
    )

    @Argument(help: "The stroke log to replay (NDJSON, protocol section 7).")
    var log: String

    @Option(name: .shortAndLong, help: "The image to write; .png or .ppm.")
    var output: String

    @Option(help: "Integer nearest-neighbour upscale, 1 to 4.")
    var scale: Int?

    @Option(help: "Downscale (area average) so the longer side is at most this many pixels.")
    var max: Int?

    /// What the output extension asks for.
    private enum Format {
        case png, ppm
    }

    /// A failure while running (unreadable or invalid log, unwritable output): reported as
    /// `Error: <message>` with exit status 1 and, unlike `ValidationError`, no usage text.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    package func validate() throws {
        _ = try format()
        if let scale, !Raster.scaleRange.contains(scale) {
            throw ValidationError("--scale must be between 1 and 4, got \(scale).")
        }
        if let max, max < 1 {
            throw ValidationError("--max must be at least 1, got \(max).")
        }
        if scale != nil, max != nil {
            throw ValidationError("--scale and --max cannot be combined.")
        }
    }

    package func run() throws {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        } catch {
            throw Failure(description: "cannot read \(log): \(error.localizedDescription)")
        }
        let raster: Raster
        do throws(StrokeLogError) {
            raster = Renderer.render(try StrokeLog(ndjson: [UInt8](bytes)).drawing())
        } catch {
            throw Failure(description: "\(log): line \(error.line): \(error.message)")
        }
        var image = raster
        if let max {
            image = image.fitted(maxSide: max)
        }
        if let scale {
            image = image.scaled(by: scale)
        }
        let encoded = try format() == .png ? PNGEncoder.encode(image) : PPMEncoder.encode(image)
        try Self.writeAtomically(encoded, to: output)
    }

    private func format() throws -> Format {
        switch URL(fileURLWithPath: output).pathExtension.lowercased() {
        case "png": .png
        case "ppm": .ppm
        default: throw ValidationError("the output must end in .png or .ppm: \(output)")
        }
    }

    /// Writes next to the target and renames, so a failure never leaves a partial image.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let target = URL(fileURLWithPath: path)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
