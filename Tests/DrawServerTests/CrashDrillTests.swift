import Canvas
import DrawProtocol
import Foundation
import GRDB
import Rooms
import ServerTestSupport
import Testing

/// Crash drills on real server processes. CI runs a short version; the full drill is
/// `DRILL_KILLS=50 swift test --filter CrashDrillTests` (see docs/RELIABILITY.md).
@Suite("Crash drills", .serialized, .timeLimit(.minutes(10)))
struct CrashDrillTests {
    static var kills: Int { Int(ProcessInfo.processInfo.environment["DRILL_KILLS"] ?? "") ?? 6 }

    /// A room kept busy by two players: the drawer draws, the guesser guesses, turns end.
    struct BusyRoom: Sendable {
        var tokens: [String] = ["", ""]
        let names = ["Drawer", "Guesser"]
        var code = ""
        /// One line per round, printed when the drill fails, so a failure says what the room saw.
        var trace: [String] = []

        /// Connects (resuming when tokens are known), then plays for `duration` once seated.
        /// Returns the room's state for the next round and how many players resumed.
        func play(port: Int, for duration: Duration) async throws -> (BusyRoom, Int) {
            var next = self
            let resumed = try await next.run(port: port, for: duration)
            return (next, resumed)
        }

        private mutating func run(port: Int, for duration: Duration) async throws -> Int {
            let clients = [TestClient.connect(port: port), TestClient.connect(port: port)]
            var resumed = 0
            for (i, client) in clients.enumerated() {
                let welcome = try await client.hello(names[i], token: tokens[i].isEmpty ? nil : tokens[i])
                if welcome["resumed"]?.boolValue == true { resumed += 1 }
                tokens[i] = client.token
            }
            // After a restart the players are still seated if their room was committed. A
            // resumed player whose seat was not (killed before the room's batch was written)
            // hears `not_in_room` below, and the pair is seated anew.
            if resumed < 2 || code.isEmpty { try await seatAnew(clients) }
            for client in clients { client.send(#"{"t":"ready","ready":true}"#) }
            var word: String?
            var drawerIndex: Int?
            var turnStarted = ContinuousClock.now
            var x: Int32 = 10
            var seen: [String: Int] = [:]
            var guesses = 0
            var lastPhase = "?"
            var lostSeat = false
            // The play is timed from here, not from the server's start: on a loaded machine
            // resuming and seating can take longer than a whole round's play.
            let started = ContinuousClock.now
            let deadline = started + duration
            defer {
                let counts = seen.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                trace.append("resumed \(resumed), \(ContinuousClock.now - started) of play, phase \(lastPhase), guesses \(guesses), seen \(counts)")
            }
            while ContinuousClock.now < deadline {
                for (i, client) in clients.enumerated() {
                    while let event = await client.nextEvent(within: 0.005) {
                        guard case .json(.object(let message)) = event, case .string(let type)? = message["t"] else { continue }
                        seen[type, default: 0] += 1
                        if type == "error", let text = message["message"]?.stringValue { seen["error: " + text, default: 0] += 1 }
                        if type == "error", message["code"]?.stringValue == "not_in_room" { lostSeat = true }
                        if type == "room", let phase = message["phase"]?.stringValue { lastPhase = phase }
                        switch type {
                        case "choose":
                            client.send(#"{"t":"choose","index":0}"#)
                        case "turn":
                            if let w = message["word"]?.stringValue {
                                word = w
                                drawerIndex = i
                                turnStarted = .now
                            }
                        case "room":
                            if message["phase"]?.stringValue == "lobby" { client.send(#"{"t":"ready","ready":true}"#) }
                            if message["phase"]?.stringValue == "drawing", message["drawer"]?.stringValue == client.playerID, word == nil {
                                drawerIndex = i
                            }
                        case "turnEnd":
                            word = nil
                            drawerIndex = nil
                        default:
                            break
                        }
                    }
                }
                if lostSeat {
                    lostSeat = false
                    seen["seated anew", default: 0] += 1
                    try await seatAnew(clients)
                    (word, drawerIndex) = (nil, nil)
                    for client in clients { client.send(#"{"t":"ready","ready":true}"#) }
                }
                if let drawer = drawerIndex {
                    x = x >= 780 ? 10 : x + 7
                    clients[drawer].send(binary: strokeBytes(from: Point(x: x, y: 20), to: Point(x: x + 5, y: 300)))
                    if let word, ContinuousClock.now - turnStarted > .milliseconds(250) {
                        clients[1 - drawer].send(#"{"t":"guess","text":"\#(word)"}"#)
                        guesses += 1
                    }
                }
                try await Task.sleep(for: .milliseconds(15))
            }
            return resumed
        }

        /// Both players leave whatever room they are in, the first creates a new one, the
        /// second joins it.
        private mutating func seatAnew(_ clients: [TestClient]) async throws {
            for client in clients where !code.isEmpty { client.send(#"{"t":"leave"}"#) }
            clients[0].send(#"{"t":"create","public":false,"settings":{"rounds":10,"drawTimeSec":30}}"#)
            let previous = code
            code = try await clients[0].next("room") { $0["code"]?.stringValue != previous }["code"]?.stringValue ?? ""
            clients[1].send(#"{"t":"join","code":"\#(code)"}"#)
            let joined = code
            try await clients[1].next("room") { $0["code"]?.stringValue == joined }
        }
    }

    @Test func sigkillAtRandomMomentsNeverLosesCommittedData() async throws {
        let db = temporaryDatabasePath()
        let arguments = ["--db", db, "--turn-end-seconds", "0", "--choose-seconds", "2", "--max-connections-per-ip", "0"]
        var rng = SystemRandomNumberGenerator()
        var rooms = [BusyRoom(), BusyRoom(), BusyRoom()]
        var committedTurns: Set<Int64> = []
        var committedGames: Set<Int64> = []
        var resumedTotal = 0
        var checks = 0
        for round in 0..<Self.kills {
            let server = try await ServerProcess(arguments)
            let playFor = Duration.milliseconds(Int.random(in: 400...1_600, using: &rng))
            let port = server.port
            let (played, counts) = try await withThrowingTaskGroup(of: (Int, BusyRoom, Int).self) { group in
                for (index, room) in rooms.enumerated() {
                    group.addTask {
                        let (next, resumed) = try await room.play(port: port, for: playFor)
                        return (index, next, resumed)
                    }
                }
                var next = rooms
                var sum = 0
                for try await (index, room, resumed) in group {
                    next[index] = room
                    sum += resumed
                }
                return (next, sum)
            }
            rooms = played
            if round > 0 { resumedTotal += counts }
            server.signal(SIGKILL)
            #expect(await server.waitForExit(seconds: 20) != nil)

            let database = try DatabaseQueue(path: db)
            let (integrity, turns, games) = try await database.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                 Set(try Int64.fetchAll(db, sql: "SELECT id FROM turn")),
                 Set(try Int64.fetchAll(db, sql: "SELECT id FROM game")))
            }
            try database.close()
            #expect(integrity == ["ok"], "integrity after kill \(round + 1)")
            #expect(committedTurns.isSubset(of: turns), "a committed turn went missing after kill \(round + 1)")
            #expect(committedGames.isSubset(of: games), "a committed game went missing after kill \(round + 1)")
            committedTurns = turns
            committedGames = games
            checks += 1
        }
        print("crash drill: \(Self.kills) SIGKILLs, integrity_check ok \(checks) times, \(committedTurns.count) finished turns and \(committedGames.count) games kept, \(resumedTotal) resumes")
        #expect(checks == Self.kills)
        #expect(committedTurns.count >= Self.kills, """
            turns finished during the drill: \(committedTurns.count)
            \(rooms.enumerated().map { "room \($0.offset):\n  " + $0.element.trace.joined(separator: "\n  ") }.joined(separator: "\n"))
            """)
        #expect(resumedTotal > 0, "players resumed with their tokens after restarts")
    }

    @Test func sigtermWithTwoHundredClientsDrainsCleanly() async throws {
        let db = temporaryDatabasePath()
        let server = try await ServerProcess(["--db", db, "--max-connections-per-ip", "0", "--drain-timeout-seconds", "10"])
        var clients: [TestClient] = []
        for i in 0..<200 {
            let client = TestClient.connect(port: server.port)
            client.send(#"{"t":"hello","name":"P\#(i)"}"#)
            clients.append(client)
        }
        for client in clients { try await client.next("welcome") }
        for host in stride(from: 0, to: 200, by: 8) {
            clients[host].send(#"{"t":"create","public":true}"#)
            let code = try await clients[host].next("room")["code"]?.stringValue ?? ""
            for guest in (host + 1)..<(host + 8) {
                clients[guest].send(#"{"t":"join","code":"\#(code)"}"#)
            }
        }
        for (i, client) in clients.enumerated() where i % 8 != 0 { try await client.next("room") }
        let start = ContinuousClock.now
        server.signal(SIGTERM)
        var sawDraining = false
        while !sawDraining, ContinuousClock.now - start < .seconds(5) {
            guard let reply = try? await HTTP.get(port: server.port, path: "/readyz") else { break }
            sawDraining = reply.status == 503
        }
        #expect(sawDraining)
        var codes: [Int?] = []
        for client in clients { codes.append(await client.closeCode(within: 15)) }
        #expect(codes.allSatisfy { $0 == 1012 }, "close codes: \(Set(codes.map { $0.map(String.init) ?? "none" }))")
        #expect(await server.waitForExit(seconds: 15) == 0)
        print("drain: 200 clients closed with 1012 and the process exited 0 in \(ContinuousClock.now - start)")
        // Every client left before the 10 s drain timeout, by the server's own account
        // rather than a window of wall time on a loaded machine.
        #expect(!server.log.contains("drain timeout: closing the connections that are left"), "\(server.log.suffix(2_000))")
        #expect(server.log.contains("connections left=0 [DrawServer] drained"))
        let database = try DatabaseQueue(path: db)
        let (players, seats) = try await database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM seat") ?? 0)
        }
        #expect(players == 200, "every player was flushed")
        #expect(seats == 200, "every seat was flushed")
    }
}
