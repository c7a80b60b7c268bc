import Canvas
import DrawProtocol
import Foundation
import GRDB
import Rooms
import ServerTestSupport
import Testing

@Suite("Persistence and recovery (real child processes)", .serialized, .timeLimit(.minutes(3)))
struct PersistenceTests {
    static let token = "moderator-secret"

    func room(_ port: Int, _ code: String) async throws -> [String: JSONValue] {
        let reply = try await HTTP.get(port: port, path: "/api/rooms/\(code)", token: Self.token)
        #expect(reply.status == 200)
        return JSONValue.parse(reply.body)?.objectValue ?? [:]
    }

    @Test func sigkillMidTurnThenRestartBringsEverythingBack() async throws {
        let db = temporaryDatabasePath()
        try await Self.crashMidTurnAndRestart(store: ["--db", db]) { code, player in
            var readOnly = Configuration()
            readOnly.readonly = true
            let queue = try DatabaseQueue(path: db, configuration: readOnly)
            return try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT score FROM seat WHERE room_code = ? AND player_id = ?", arguments: [code, player])
            }
        }
    }

    /// Kills the server (-9) mid-turn and starts it again on the same store: the room,
    /// its players, scores, timer and canvas come back, and the game goes on. `store` names
    /// the store (`--db FILE` or `--store postgres://...`); `storedScore` reads a player's
    /// score in a room from it, so the kill comes once the guess is committed (the writer's
    /// interval is the documented loss window; a loaded test machine can take longer).
    static func crashMidTurnAndRestart(
        store: [String], storedScore: @escaping (_ room: String, _ player: String) async throws -> Int?
    ) async throws {
        let arguments = store + ["--moderator-token", Self.token, "--seed", "11", "--web-root", "web-static"]
        var server = try await ServerProcess(arguments)
        let (ada, bob, cy) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        try await cy.hello("Cy")
        let code = try await seat(ada, [bob, cy], settings: #"{"rounds":2,"drawTimeSec":120}"#)
        let word = try #require(try await startGame(ada)["word"]?.stringValue)
        let strokes = [
            strokeBytes(from: Point(x: 100, y: 100), to: Point(x: 700, y: 500), width: 12),
            strokeBytes(from: Point(x: 700, y: 100), to: Point(x: 100, y: 500), width: 3),
            strokeBytes(from: Point(x: 400, y: 40), to: Point(x: 410, y: 560), width: 30),
        ]
        for frame in strokes { ada.send(binary: frame) }
        _ = try await bob.nextBinary(bytes: strokes.map(\.count).reduce(0, +))
        bob.send(#"{"t":"guess","text":"\#(word)"}"#)
        let points = try #require(try await ada.next("guessed")["points"]?.intValue)

        let before = try await HTTP.get(port: server.port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
        #expect(before.status == 200)
        try await waitUntil(seconds: 30) { try await storedScore(code, bob.playerID) == points }
        server.signal(SIGKILL)
        #expect(await server.waitForExit(seconds: 20) != nil)

        server = try await ServerProcess(arguments)
        let restored = try await PersistenceTests().room(server.port, code)
        #expect(restored["phase"]?.stringValue == "drawing")
        #expect(restored["drawer"]?.stringValue == ada.playerID)
        let remaining = restored["remainingMs"]?.intValue ?? 0
        #expect(remaining > 100_000 && remaining <= 120_000, "time left survives: \(remaining)")
        let players = restored["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(players.count == 3)
        #expect(players.allSatisfy { $0["connected"]?.boolValue == false })
        #expect(players.first { $0["id"]?.stringValue == bob.playerID }?["score"]?.intValue == points)
        #expect(players.first { $0["id"]?.stringValue == bob.playerID }?["guessed"]?.boolValue == true)

        let after = try await HTTP.get(port: server.port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
        #expect(after.body == before.body, "the canvas is pixel-identical after the crash")

        let resumed = TestClient.connect(port: server.port)
        let welcome = try await resumed.hello("Cy", token: cy.token)
        #expect(welcome["resumed"]?.boolValue == true)
        #expect(welcome["playerId"]?.stringValue == cy.playerID)
        #expect(try await resumed.next("room")["code"]?.stringValue == code)
        try await resumed.next("canvas")
        var replay = Drawing(size: .standard)
        _ = try replay.apply(frame: try await resumed.nextBinary())
        var expected = Drawing(size: .standard)
        for frame in strokes { _ = try expected.apply(frame: frame) }
        #expect(Renderer.render(replay) == Renderer.render(expected))
        // The game goes on: the last guesser can still guess.
        resumed.send(#"{"t":"guess","text":"\#(word)"}"#)
        try await resumed.next("guessed")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }

    @Test func corruptDatabaseIsReportedAndLeftUntouched() async throws {
        let db = temporaryDatabasePath()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: db))
        let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--db", db])
        #expect(status != 0)
        #expect(output.contains("cannot start"))
        #expect(output.contains(db))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == garbage, "the file must not be modified")
    }

    @Test func emptyFileIsMigratedAndServes() async throws {
        let db = temporaryDatabasePath()
        FileManager.default.createFile(atPath: db, contents: Data())
        let server = try await ServerProcess(["--db", db])
        let client = TestClient.connect(port: server.port)
        try await client.hello("Ada")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
        let size = (try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
        #expect(size > 0)
    }

    @Test func sigtermDrainsWith1012AndExitsZero() async throws {
        let db = temporaryDatabasePath()
        let server = try await ServerProcess(["--db", db, "--drain-timeout", "2s"])
        var clients: [TestClient] = []
        for i in 0..<5 {
            let client = TestClient.connect(port: server.port)
            try await client.hello("P\(i)")
            clients.append(client)
        }
        try await seat(clients[0], Array(clients[1...]))
        // A peer that completes the handshake but never reads or answers keeps the drain busy,
        // so /readyz can be seen answering 503 meanwhile; the drain timeout cuts it off.
        let silent = try await SilentWebSocketPeer(port: server.port)
        #expect(silent.upgraded, "the silent peer's upgrade was accepted")
        try await waitUntil { try await HTTP.get(port: server.port, path: "/metrics").text.contains("drawserver_connections 6") }
        let start = ContinuousClock.now
        server.signal(SIGTERM)
        var sawDraining = false
        while !sawDraining, ContinuousClock.now - start < .seconds(3) {
            guard let reply = try? await HTTP.get(port: server.port, path: "/readyz") else { break }
            sawDraining = reply.status == 503
        }
        #expect(sawDraining, "readiness goes 503 while draining")
        // Upgrades are refused while draining.
        let late = try await SilentWebSocketPeer(port: server.port)
        #expect(!late.upgraded, "no WebSocket while draining: \(late.statusLine)")
        for client in clients { #expect(await client.closeCode() == 1012) }
        #expect(await server.waitForExit(seconds: 20) == 0)
        print("drain with a peer that never answers: exited 0 after \(ContinuousClock.now - start) (drain timeout 2 s)")
        // What ended the drain, from the server's own account rather than a window of wall time.
        #expect(server.log.contains("connections=1 [DrawServer] drain timeout: closing the connections that are left"), "the drain timeout cut the silent peer off: \(server.log)")
        #expect(server.log.contains("connections left=0 [DrawServer] drained"))
        silent.close()
        late.close()
    }
}

/// A TCP peer that asks for a WebSocket upgrade, reads the response line, then goes
/// silent: it never reads again and never answers a close.
final class SilentWebSocketPeer {
    let socket: Int32
    /// The status line of the server's response, e.g. `HTTP/1.1 101 Switching Protocols`.
    private(set) var statusLine = ""

    var upgraded: Bool { statusLine.contains(" 101 ") }

    init(port: Int) async throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        try connectToLoopback(socket, port: port)
        let request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }
        // Read up to the end of the first line (a few bytes at a time, so nothing after the
        // response headers is consumed), with a timeout so a test never hangs here.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let line = await offThePool {
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while line.count < 200, recv(socket, &byte, 1, 0) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
            return line
        }
        statusLine = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func close() { Glibc.close(socket) }
}

@Suite("Export of finished turns", .timeLimit(.minutes(2)))
struct ExportTests {
    @Test func finishedTurnsAreKeptAndExported() async throws {
        let db = temporaryDatabasePath()
        let server = try await ServerProcess(["--db", db, "--turn-end-seconds", "1"])
        let (ada, bob) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        let code = try await seat(ada, [bob])
        let word = try #require(try await startGame(ada)["word"]?.stringValue)
        let frames = [strokeBytes(from: Point(x: 5, y: 5), to: Point(x: 90, y: 80)), strokeBytes(from: Point(x: 300, y: 5), to: Point(x: 90, y: 480))]
        for frame in frames { ada.send(binary: frame) }
        _ = try await bob.nextBinary(bytes: frames.map(\.count).reduce(0, +))
        ada.send(#"{"t":"skip"}"#)
        try await bob.next("turnEnd")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).ndjson").path
        let (status, text) = try await ServerProcess.run(["export", "--db", db, "--room", code.lowercased(), "-o", out])
        #expect(status == 0, "\(text)")
        let log = try StrokeLog(ndjson: try String(contentsOfFile: out, encoding: .utf8))
        #expect(log.word == word)
        #expect(log.frames.map(\.bytes) == frames)
        let (badStatus, message) = try await ServerProcess.run(["export", "--db", db, "--room", code, "--turn", "9"])
        #expect(badStatus != 0)
        #expect(message.contains("turns 1 to 1"))
    }
}
