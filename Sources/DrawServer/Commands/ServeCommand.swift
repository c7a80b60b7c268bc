import ArgumentParser
import Canvas
import Foundation
import Hummingbird
import Logging
import Rooms

/// `drawserver serve`: runs the game server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the game server (HTTP, WebSocket at /ws, the browser client at /)."
    )

    @Option(help: "Address to listen on (env DRAWSERVER_HOST).")
    var host: String?
    @Option(help: "Port to listen on (env DRAWSERVER_PORT).")
    var port: Int?
    @Option(help: "Folder of the browser client served at / (env DRAWSERVER_WEB_ROOT).")
    var webRoot: String?
    @Option(help: "Canvas size as WIDTHxHEIGHT (env DRAWSERVER_CANVAS).")
    var canvas: String?
    @Option(help: "Seed for deterministic room codes, tokens and words; for tests only (env DRAWSERVER_SEED).")
    var seed: UInt64?
    @Option(help: "Seconds a drawer has to choose a word (env DRAWSERVER_CHOOSE_SECONDS).")
    var chooseSeconds: Int?
    @Option(help: "Seconds the turn-end reveal lasts (env DRAWSERVER_TURN_END_SECONDS).")
    var turnEndSeconds: Int?
    @Option(help: "Seconds the game-end podium lasts (env DRAWSERVER_GAME_END_SECONDS).")
    var gameEndSeconds: Int?
    @Option(help: "Seconds a disconnected player keeps its seat (env DRAWSERVER_GRACE_SECONDS).")
    var graceSeconds: Int?
    @Option(help: "Bytes one connection may have queued before it is closed with 4008 (env DRAWSERVER_OUTBOUND_QUEUE_BYTES).")
    var outboundQueueBytes: Int?
    @Flag(inversion: .prefixedEnableDisable, help: "Negotiate permessage-deflate (env DRAWSERVER_PERMESSAGE_DEFLATE=1).")
    var permessageDeflate: Bool?
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env DRAWSERVER_LOG_LEVEL).")
    var logLevel: String?

    func run() async throws {
        let env = Environment()
        var configuration = ServerConfiguration()
        configuration.host = host ?? env.string("DRAWSERVER_HOST") ?? configuration.host
        configuration.port = try port ?? env.int("DRAWSERVER_PORT") ?? configuration.port
        configuration.webRoot = webRoot ?? env.string("DRAWSERVER_WEB_ROOT") ?? configuration.webRoot
        configuration.seed = try seed ?? env.uint64("DRAWSERVER_SEED")
        if let text = canvas ?? env.string("DRAWSERVER_CANVAS") {
            guard let size = CanvasSize(parsing: text) else {
                throw ValidationError("--canvas must look like 800x600 (each side 16 to 4096)")
            }
            configuration.room.canvas = size
        }
        configuration.room.chooseMs = try Self.seconds(chooseSeconds ?? env.int("DRAWSERVER_CHOOSE_SECONDS"), "choose-seconds", default: configuration.room.chooseMs)
        configuration.room.turnEndMs = try Self.seconds(turnEndSeconds ?? env.int("DRAWSERVER_TURN_END_SECONDS"), "turn-end-seconds", default: configuration.room.turnEndMs)
        configuration.room.gameEndMs = try Self.seconds(gameEndSeconds ?? env.int("DRAWSERVER_GAME_END_SECONDS"), "game-end-seconds", default: configuration.room.gameEndMs)
        configuration.room.graceMs = try Self.seconds(graceSeconds ?? env.int("DRAWSERVER_GRACE_SECONDS"), "grace-seconds", default: configuration.room.graceMs)
        if let bytes = try outboundQueueBytes ?? env.int("DRAWSERVER_OUTBOUND_QUEUE_BYTES") {
            guard bytes >= 64 * 1024 else { throw ValidationError("--outbound-queue-bytes must be at least 65536") }
            configuration.limits.outboundQueueBytes = bytes
        }
        configuration.limits.permessageDeflate = permessageDeflate ?? env.bool("DRAWSERVER_PERMESSAGE_DEFLATE") ?? false

        var logger = Logger(label: "drawserver")
        let level = logLevel ?? env.string("DRAWSERVER_LOG_LEVEL") ?? "info"
        guard let parsed = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level \(level)") }
        logger.logLevel = parsed

        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.runService()
    }

    private static func seconds(_ value: Int?, _ name: String, default fallback: Int) throws -> Int {
        guard let value else { return fallback }
        guard (0...3600).contains(value) else { throw ValidationError("--\(name) must be 0...3600") }
        return value * 1000
    }
}

/// Reads `DRAWSERVER_*` settings from the process environment.
struct Environment {
    let values = ProcessInfo.processInfo.environment

    func string(_ key: String) -> String? {
        guard let value = values[key], !value.isEmpty else { return nil }
        return value
    }

    func int(_ key: String) throws -> Int? {
        guard let text = string(key) else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(key) must be an integer, not \(text)") }
        return value
    }

    func uint64(_ key: String) throws -> UInt64? {
        guard let text = string(key) else { return nil }
        guard let value = UInt64(text) else { throw ValidationError("\(key) must be an unsigned integer, not \(text)") }
        return value
    }

    func bool(_ key: String) -> Bool? {
        string(key).map { ["1", "true", "yes", "on"].contains($0.lowercased()) }
    }
}
