import Canvas
import DrawProtocol
import Foundation
import NIOCore
import NIOEmbedded
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer
@testable import LoadTester

/// `drawserver replay --connect-first`: nobody says `ready` before the barrier, so every
/// room starts drawing together once every seat has joined.
@Suite("Replay: connect phase and barrier")
struct ReplayBarrierTests {
    static func room(on eventLoop: EmbeddedEventLoop, connectFirst: Bool) throws -> ReplayRoom {
        let url = try #require(ReplayURL("ws://127.0.0.1:9/ws"))
        let log = ReplayLog(name: "seed3", log: SampleDrawing.make(seed: 3), speed: 1)
        var plan = ReplayPlan(url: url, players: 3, logs: [log], drawTimeSec: 80, rounds: 3)
        plan.connectFirst = connectFirst
        // No connection attempt ever starts (none could on an `EmbeddedEventLoop`): the
        // tests hand each client the server's messages themselves.
        let context = LoopContext(eventLoop: eventLoop, url: url, concurrency: 0)
        let room = ReplayRoom(index: 0, plan: plan, context: context, clients: 3)
        for client in room.clients {
            ReplayTurnOrderTests.tell(client, #"{"t":"welcome","playerId":"p\#(client.seat)","token":"t","resumed":false,"name":"n"}"#)
        }
        return room
    }

    /// The lobby as `room` shows it. The host learns the code from it and queues the other
    /// seats' connections, which never open here (concurrency 0).
    static func lobby(players: Int) -> String {
        let list = (0..<players).map { #"{"id":"p\#($0)","name":"n","score":0,"ready":false,"connected":true,"guessed":false,"spectator":false}"# }
        return #"{"t":"room","code":"ABCDEF","phase":"lobby","players":[\#(list.joined(separator: ","))],"canvas":{"w":800,"h":600}}"#
    }

    @Test func seatsWaitForTheBarrierThenAllSayReady() throws {
        let room = try Self.room(on: EmbeddedEventLoop(), connectFirst: true)
        let (first, second) = (room.clients[0], room.clients[1])
        for client in [first, second] { ReplayTurnOrderTests.tell(client, Self.lobby(players: 2)) }
        #expect(room.context.roomsSeated == 0, "a lobby short of players is not complete")
        for client in room.clients { ReplayTurnOrderTests.tell(client, Self.lobby(players: 3)) }
        #expect(room.clients.allSatisfy { $0.isSeated && !$0.readySent })
        #expect(room.context.roomsSeated == 1)

        room.release()
        #expect(room.clients.allSatisfy { $0.readySent })
    }

    @Test func aSeatThatJoinsAfterTheReleaseSaysReadyAtOnce() throws {
        let room = try Self.room(on: EmbeddedEventLoop(), connectFirst: true)
        ReplayTurnOrderTests.tell(room.clients[0], Self.lobby(players: 3))
        room.release()
        #expect(room.clients[0].readySent)
        #expect(!room.clients[1].readySent)
        ReplayTurnOrderTests.tell(room.clients[1], Self.lobby(players: 3))
        #expect(room.clients[1].readySent)
    }

    @Test func withoutTheBarrierAFullLobbyMeansReady() throws {
        let room = try Self.room(on: EmbeddedEventLoop(), connectFirst: false)
        ReplayTurnOrderTests.tell(room.clients[1], Self.lobby(players: 3))
        #expect(room.clients[1].readySent)
        #expect(!room.clients[1].isSeated)
        #expect(room.context.roomsSeated == 0)
    }

    /// `server_busy` on `join` is counted and retried after `retryAfterMs`, not given up.
    @Test func aBusyRefusalIsCountedAndRetriedAfterTheGivenDelay() throws {
        let eventLoop = EmbeddedEventLoop()
        let room = try Self.room(on: eventLoop, connectFirst: true)
        let client = room.clients[1]
        ReplayTurnOrderTests.tell(client, #"{"t":"error","code":"server_busy","message":"busy","ref":"join","retryAfterMs":1500}"#)
        ReplayTurnOrderTests.tell(client, #"{"t":"error","code":"room_full","message":"full","ref":"join"}"#)
        #expect(room.context.counters.busyRetries == 1)
        #expect(room.context.counters.serverErrors == ["server_busy": 1, "room_full": 1])
    }

    /// A run whose connect phase did not fill every room fails as a connection failure.
    @Test func anIncompleteConnectPhaseFailsTheRun() {
        var summary = ReplaySummary.make(
            url: "ws://x/ws", mode: "load", rooms: 2, players: 3, speed: 1, logs: [], duration: 10, window: 8,
            counters: ReplayCounters(opsExpected: 10, opsDelivered: 10), latency: LatencyHistogram(), sendLag: LatencyHistogram(),
            clientCPU: 0, cores: 1, threads: 1, server: nil
        )
        summary.connectPhase = .init(seconds: 1, connectionsEstablished: 6, connectionsPlanned: 6, roomsComplete: 2, roomsPlanned: 2, busyRetries: 3, connectErrors: 0, timedOut: false)
        #expect(ReplayVerdict(summary: summary).passed)
        summary.connectPhase?.roomsComplete = 1
        summary.connectPhase?.connectionsEstablished = 5
        #expect(ReplayVerdict(summary: summary).failures.map(\.0) == [.connectionsFailed])
    }

    /// Against a real server: the connect phase fills every room, then the run measures.
    @Test func aConnectFirstRunJoinsEverySeatBeforeMeasuring() async throws {
        try await withServer({ $0.limits.maxConnectionsPerIP = 0; $0.limits.roomCreationsPerIP = Rate(1000, perMs: 1000) }) { port in
            let json = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: json) }
            let (status, output) = try await ServerProcess.run(
                ["replay", "--url", "ws://127.0.0.1:\(port)/ws", "--rooms", "3", "--players", "3", "--connect-first",
                 "--ramp", "0.5", "--duration", "3", "--warmup", "0.5", "--drain", "2", "--min-ratio", "0", "--quiet", "--json", json.path],
                timeout: 60
            )
            #expect(status == 0, "exit \(status): \(output)")
            let summary = try JSONDecoder().decode(ReplaySummary.self, from: Data(contentsOf: json))
            let phase = try #require(summary.connectPhase)
            #expect(phase.roomsComplete == 3 && phase.roomsPlanned == 3)
            #expect(phase.connectionsEstablished == 9 && phase.connectionsPlanned == 9)
            #expect(!phase.timedOut)
            #expect(summary.delivery.delivered > 0)
        }
    }
}
