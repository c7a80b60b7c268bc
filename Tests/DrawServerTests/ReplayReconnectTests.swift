import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer
@testable import LoadTester

/// `drawserver replay --reconnect` through what a load test meets in production: a server
/// killed with SIGKILL and one restarted gracefully (1012), both on the same port and database.
@Suite("Replay: --reconnect through restarts", .serialized)
struct ReplayReconnectTests {
    /// The server's arguments: the test's database, no per-address caps (every client is on
    /// 127.0.0.1), no pause between turns.
    static func serve(db: String, port: Int? = nil) -> [String] {
        ["--db", db, "--max-connections-per-ip", "0", "--ip-room-rate", "100000/1s", "--turn-end-seconds", "0"]
            + (port.map { ["--port", String($0)] } ?? [])
    }

    /// Waits until the server has `rooms` rooms drawing and has stored drawing frames.
    static func waitForDrawing(port: Int, rooms: Int) async throws {
        try await waitUntil(seconds: 30) {
            let text = (try? await HTTP.get(port: port, path: "/metrics").text) ?? ""
            let drawing = text.split(separator: "\n").first { $0.hasPrefix(#"drawserver_rooms{phase="drawing"}"#) }
            let frames = text.split(separator: "\n").first { $0.hasPrefix("drawserver_db_stroke_frames_total") }
            return drawing.flatMap { Double($0.split(separator: " ").last ?? "") } == Double(rooms)
                && (frames.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0) > 0
        }
    }

    /// A server of this test, ready; given a minute, since the whole suite may be running
    /// beside it on a busy machine.
    static func start(db: String, port: Int? = nil) async throws -> ServerProcess {
        let server = try await ServerProcess(serve(db: db, port: port), waitForReady: false)
        try await waitUntil(seconds: 60) { try await HTTP.get(port: server.port, path: "/readyz").status == 200 }
        return server
    }

    /// A `replay --reconnect` of `rooms` x `players` against `port` for `seconds`, started
    /// in the background, writing its summary to `json`.
    static func replay(port: Int, rooms: Int, players: Int, seconds: Int, drain: Int, minRatio: String, json: URL) -> Task<(Int32, String), any Error> {
        Task {
            try await ServerProcess.run(
                ["replay", "--url", "ws://127.0.0.1:\(port)/ws", "--rooms", "\(rooms)", "--players", "\(players)", "--duration", "\(seconds)",
                 "--warmup", "0.5", "--drain", "\(drain)", "--reconnect", "--min-ratio", minRatio, "--quiet", "--json", json.path],
                timeout: 90
            )
        }
    }

    @Test func aRunGoesOnThroughAKillAndAGracefulRestart() async throws {
        let db = temporaryDatabasePath()
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        var server = try await Self.start(db: db)
        let port = server.port
        let replay = Self.replay(port: port, rooms: 2, players: 3, seconds: 25, drain: 2, minRatio: "0", json: json)
        try await Self.waitForDrawing(port: port, rooms: 2)
        server.signal(SIGKILL)
        #expect(await server.waitForExit(seconds: 20) != nil)
        server = try await Self.start(db: db, port: port)
        try await Self.waitForDrawing(port: port, rooms: 2)
        // A rolling restart: SIGTERM drains (1012 to every client), then a new process.
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 20) == 0)
        server = try await Self.start(db: db, port: port)

        let (status, output) = try await replay.value
        #expect(status == 0, "exit \(status): \(output)")
        let summary = try JSONDecoder().decode(ReplaySummary.self, from: Data(contentsOf: json))
        let outages = try #require(summary.outages)
        #expect(outages.count == 2, "\(outages)")
        for outage in outages {
            #expect(outage.clients == 6 && outage.recovered == 6 && outage.refused == 0, "\(outage)")
            #expect(outage.reconnectMsMax > 0)
        }
        #expect(outages.last?.closeCodes == ["1012": 6])
        #expect(outages.first?.closeCodes == ["none": 6], "a killed server sends no close frame")
        #expect(summary.unexpectedCloses == 0 && summary.connectErrors == 0)
        #expect(summary.delivery.delivered > 0)
        _ = server
    }

    /// A planned restart (SIGTERM drains with 1012, a new process takes over) loses no
    /// operation: the run demands every one delivered (`--min-ratio 1`), and the outage
    /// counts none lost. What a drawer sent while the 1012 was on its way is kept.
    @Test
    func aGracefulRestartLosesNoOperation() async throws {
        let db = temporaryDatabasePath()
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }
        var server = try await Self.start(db: db)
        let port = server.port
        let replay = Self.replay(port: port, rooms: 4, players: 4, seconds: 15, drain: 3, minRatio: "1", json: json)
        try await Self.waitForDrawing(port: port, rooms: 4)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 20) == 0)
        server = try await Self.start(db: db, port: port)

        let (status, output) = try await replay.value
        #expect(status == 0, "exit \(status): \(output)")
        let summary = try JSONDecoder().decode(ReplaySummary.self, from: Data(contentsOf: json))
        let outage = try #require(summary.outages?.first)
        #expect(outage.closeCodes == ["1012": 16] && outage.recovered == 16, "\(outage)")
        #expect(outage.opsLost == 0, "\(outage)")
        #expect(summary.delivery.delivered > 0 && summary.delivery.lost == 0, "\(summary.delivery)")
        _ = server
    }

    /// Clients' outages that overlap are one event; one that begins after they all came
    /// back is the next; a client that never came back holds its event open.
    @Test func overlappingOutagesAreOneEvent() {
        let ms: UInt64 = 1_000_000
        let outages = [
            ReplayOutage(startedAt: 1_000 * ms, endedAt: 1_400 * ms, closeCode: 1012, opsLost: 2, attempts: 3),
            ReplayOutage(startedAt: 1_010 * ms, endedAt: 1_900 * ms, closeCode: 1012, opsLost: 1, attempts: 5),
            ReplayOutage(startedAt: 5_000 * ms, endedAt: nil, closeCode: nil, attempts: 9),
            ReplayOutage(startedAt: 5_100 * ms, endedAt: 5_300 * ms, closeCode: nil, refused: true, attempts: 1),
        ]
        let events = ReplayOutage.events(outages.reversed(), runStart: 500 * ms)
        #expect(events.count == 2)
        #expect(events[0] == ReplaySummary.Outage(
            atSeconds: 0.5, clients: 2, recovered: 2, refused: 0, reconnectMsP50: 400, reconnectMsMax: 890, reconnectMsP99: 890,
            opsLost: 3, attempts: 8, closeCodes: ["1012": 2]))
        #expect(events[1].clients == 2 && events[1].recovered == 0 && events[1].refused == 1)
        #expect(events[1].closeCodes == ["none": 2])
    }

    /// After a kill -9 a client is welcomed back before its room is: the time back in the
    /// room counts from the event's first close, with a curve of clients back over time.
    @Test func backInTheRoomIsTimedFromTheFirstCloseWithItsCurve() {
        let ms: UInt64 = 1_000_000
        let outages = [
            ReplayOutage(startedAt: 1_000 * ms, endedAt: 1_200 * ms, closeCode: nil, attempts: 1, roomAt: 3_500 * ms),
            ReplayOutage(startedAt: 1_050 * ms, endedAt: 1_300 * ms, closeCode: nil, attempts: 2, roomAt: 3_240 * ms),
            ReplayOutage(startedAt: 1_100 * ms, endedAt: 1_250 * ms, closeCode: nil, attempts: 1),
        ]
        let event = try! #require(ReplayOutage.events(outages, runStart: 0).first)
        #expect(event.backInRoom == 2)
        #expect(event.roomMsP50 == 2_240 && event.roomMsP99 == 2_500 && event.roomMsMax == 2_500)
        let curve = event.curve ?? []
        #expect(curve.first == [0, 0] && curve.last == [2.5, 2])
        #expect(curve.first { $0[1] == 1 }?[0] == 2.3, "the first back at 2.24 s shows in the 2.3 s point")
    }
}
