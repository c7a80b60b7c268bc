import Canvas
import DrawProtocol
import Hummingbird
import HummingbirdTesting
import Logging
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Runs `buildApplication` in-process on a free loopback port for the duration of `body`.
func withServer(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    clock: ManualServerClock? = nil,
    _ body: @Sendable (Int) async throws -> Void
) async throws {
    try await withServerRuntime(configure, clock: clock) { _, port in try await body(port) }
}

/// `withServer`, with the runtime for tests that reach into it (its event loops).
func withServerRuntime(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    clock: ManualServerClock? = nil,
    lockAudit: LockAudit? = nil,
    _ body: @Sendable (DrawServerRuntime, Int) async throws -> Void
) async throws {
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.webRoot = nil
    configuration.seed = 7
    configuration.room.turnEndMs = 150
    configuration.room.gameEndMs = 150
    // The suite runs many servers at once on a busy machine: admission control would judge
    // that load. AdmissionTests turns it back on.
    configuration.admission.lagThreshold = .zero
    configure(&configuration)
    var logger = Logger(label: "drawserver-test")
    logger.logLevel = .warning
    let runtime = try DrawServerRuntime(configuration: configuration, logger: logger, clock: clock.map(ServerClock.init) ?? ServerClock(), lockAudit: lockAudit)
    try await runtime.prepare()
    let app = buildApplication(runtime: runtime, services: runtime.writer.map { [$0] } ?? [])
    try await app.test(.live) { client in
        try await body(runtime, client.port ?? 0)
    }
    runtime.server.admission.stop()
}

/// A short stroke as protocol bytes.
func strokeBytes(from start: Point, to end: Point, width: UInt8 = 6) -> [UInt8] {
    var cursor = StrokeCursor()
    return FrameCodec.encode([
        .begin(tool: .pen, color: RGB(r: 200, g: 30, b: 30), width: width, at: start),
        .points([end]),
        .end,
    ], cursor: &cursor)
}

/// Creates a room with `host` and joins the others; returns the room code.
@discardableResult
func seat(_ host: TestClient, _ others: [TestClient], settings: String = #"{"rounds":1}"#) async throws -> String {
    host.send(#"{"t":"create","name":"Test","public":true,"settings":\#(settings)}"#)
    let room = try await host.next("room")
    let code = room["code"]?.stringValue ?? ""
    for client in others {
        client.send(#"{"t":"join","code":"\#(code.lowercased())"}"#)
        try await client.next("room")
    }
    return code
}

/// Seats `host` and the others, starts the game and has the host (the first drawer) choose
/// the first word; returns the host's `turn` message (with the word) once it arrives.
@discardableResult
func startTurn(_ host: TestClient, _ others: [TestClient], settings: String = #"{"rounds":1}"#) async throws -> [String: JSONValue] {
    try await seat(host, others, settings: settings)
    return try await startGame(host)
}

/// Starts the seated room's game and has the host (the first drawer) choose the first
/// word; returns the host's `turn` message (with the word).
@discardableResult
func startGame(_ host: TestClient) async throws -> [String: JSONValue] {
    host.send(#"{"t":"start"}"#)
    try await host.next("choose")
    host.send(#"{"t":"choose","index":0}"#)
    return try await host.next("turn")
}

/// A counter's value on the server's `/metrics` (0 while it has not been counted). Tests
/// read the server's own count of what happened instead of timing it.
func metricValue(_ name: String, port: Int) async throws -> Double {
    let text = try await HTTP.get(port: port, path: "/metrics").text
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.dropFirst(name.count + 1)) ?? 0
    }
    return 0
}

/// How many times the server held a message back until its connection's budget refilled.
func messagesDelayed(port: Int) async throws -> Double {
    try await metricValue("drawserver_messages_delayed_total", port: port)
}
