import Canvas
import DrawProtocol
import Foundation
import Logging
import PostgresNIO
@testable import Rooms
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer

@Suite("PostgreSQL store", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresStoreTests {
    let logger = TestPostgres.logger

    func open(_ url: PostgresStoreURL, node: String, leaseMs: Int = 6_000) async throws -> WrittenStore {
        WrittenStore(try await openStore(url, node: node, leaseMs: leaseMs))
    }

    func openStore(_ url: PostgresStoreURL, node: String, leaseMs: Int = 6_000) async throws -> PostgresGameStore {
        var configuration = PostgresGameStore.Configuration()
        configuration.leases = LeaseKeeper.Configuration(
            duration: .milliseconds(leaseMs), renewAfter: .milliseconds(leaseMs / 3), safetyMargin: .milliseconds(leaseMs / 10)
        )
        return try await PostgresGameStore.open(url: url, nodeID: node, configuration: configuration, logger: logger)
    }

    func frames(_ count: Int, from start: Int = 0) -> [StrokeLog.Frame] {
        (start..<start + count).map { n in
            StrokeLog.Frame(at: n * 10, bytes: strokeBytes(from: Point(x: Int32(n % 500), y: 3), to: Point(x: 400, y: Int32(n % 300))))
        }
    }

    @Test func migrationsAreSafeWhenNodesStartAtOnce() async throws {
        let url = try await TestPostgres.freshDatabase()
        let stores = try await withThrowingTaskGroup(of: PostgresGameStore.self) { group in
            for node in ["n1", "n2", "n3", "n4"] { group.addTask { try await self.openStore(url, node: node) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 4)
        let applied = try await TestPostgres.integer(url, "SELECT COUNT(*) FROM drawserver_migrations")
        #expect(applied == Int64(PostgresSchema.migrations.count + PostgresSchema.galleryMigrations.count + PostgresSchema.reportMigrations.count))
        for store in stores { await store.close() }
    }

    @Test func roomsPlayersAndStrokesSurviveARestart() async throws {
        let url = try await TestPostgres.freshDatabase()
        let first = try await open(url, node: "solo")
        let room = StrokeStorageTests.drawingRoom("PGAAAA")
        let closing = StrokeStorageTests.drawingRoom("PGBBBB")
        let now = Timestamp(milliseconds: 1_000)
        let avatar = Avatar(color: 3, eyes: 2, mouth: 5, accessory: 6)
        first.playerChanged(PlayerRecord(id: PlayerID("ada"), name: "Ada", avatar: avatar, tokenHash: "hash-ada", lastSeen: now))
        first.roomChanged(room.snapshot(now: now))
        first.roomChanged(closing.snapshot(now: now))
        let sent = frames(250)
        for (n, frame) in sent.enumerated() {
            first.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame)
            // Several batches, so the room's frames span several packed rows.
            if n % 100 == 99 { await first.commitPending() }
        }
        first.roomClosed(closing.code)
        await first.commitPending()
        #expect(first.statistics.failedCommits == 0)
        #expect(try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = 'PGBBBB'") == 0, "a closed room is deleted")
        await first.close()

        // The same node after a crash: it takes its own leases back at a higher epoch.
        let second = try await open(url, node: "solo")
        let stored = try await second.load()
        #expect(stored.players.map(\.id) == ["ada"])
        #expect(stored.players.first?.tokenHash == "hash-ada")
        #expect(stored.players.first?.avatar == avatar, "avatars are stored as in SQLite")
        #expect(stored.unreadable.isEmpty)
        let back = try #require(stored.rooms.first)
        #expect(stored.rooms.count == 1)
        #expect(back.snapshot.code == "PGAAAA")
        #expect(back.snapshot.members == room.snapshot(now: now).members)
        #expect(back.frames == sent, "every frame, in order")
        #expect(second.store.keeper.withLock { $0.epoch(of: room.code) } == 2)
        await second.close()
    }

    @Test func framesOfRoomsDrawingAtOnceKeepTheirOrderInOneBatch() async throws {
        let url = try await TestPostgres.freshDatabase()
        let first = try await open(url, node: "solo")
        let rooms = [StrokeStorageTests.drawingRoom("PGCCCC"), StrokeStorageTests.drawingRoom("PGDDDD")]
        let now = Timestamp(milliseconds: 1_000)
        for room in rooms { first.roomChanged(room.snapshot(now: now)) }
        // One batch, the rooms' frames interleaved one by one (each frame starts a new run
        // of its room), and a run going on after another room's.
        let sent = [frames(40), frames(40, from: 500)]
        for n in 0..<40 {
            for (room, roomFrames) in zip(rooms, sent) {
                first.frameAppended(room: room.code, generation: room.canvasGeneration, frame: roomFrames[n])
            }
        }
        await first.commitPending()
        #expect(first.statistics.failedCommits == 0)
        await first.close()

        let second = try await open(url, node: "solo")
        let stored = try await second.load()
        for (room, roomFrames) in zip(rooms, sent) {
            let back = try #require(stored.rooms.first { $0.snapshot.code == room.code.rawValue })
            #expect(back.frames == roomFrames, "every frame of \(room.code), in order")
        }
        #expect(try await TestPostgres.integer(url, "SELECT COUNT(*) FROM stroke") == 2, "one packed row per room")
        await second.close()
    }

    /// A primary lost after its `COMMIT` reached the standby: the transaction is in, its
    /// answer is not. The writer tries the batch again alone, under the same id, and the
    /// store takes it once: no stroke row, turn or game twice. Frames drawn meanwhile wait
    /// behind it.
    @Test func aBatchWhoseCommitWentUnansweredIsWrittenOnce() async throws {
        let url = try await TestPostgres.freshDatabase()
        let store = try await openStore(url, node: "doubter")
        let lossy = AnswerLost(store)
        let node = WrittenStore(store, backend: lossy)
        let room = StrokeStorageTests.drawingRoom("PGDUBT")
        let now = Timestamp(milliseconds: 1_000)
        let sent = frames(30)
        let turn = TurnRecord(
            roomCode: room.code, game: 1, turn: 1, round: 1, drawer: PlayerID("ada"), word: "cat", reason: .allGuessed,
            scores: [PlayerID("ada"): 10], strokes: StrokeLog(size: .standard, word: "cat", frames: Array(sent[0..<2])),
            ratings: RatingCounts(likes: 0, dislikes: 0), drawing: nil
        )
        let game = GameRecord(roomCode: room.code, game: 1, ranking: [RankEntry(id: PlayerID("ada"), name: "Ada", score: 10, place: 1)])

        // The first try commits; as far as the node knows it failed, so the batch waits in
        // doubt, and frames drawn since wait behind it.
        lossy.loseNext(.afterCommit)
        node.roomChanged(room.snapshot(now: now))
        for frame in sent[0..<20] { node.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame) }
        node.turnFinished(turn)
        node.gameFinished(game)
        #expect(await node.commitPending() == false)
        for frame in sent[20..<30] { node.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame) }
        #expect(await node.commitPending())
        #expect(node.pendingCount == 0 && node.statistics.failedCommits == 1)
        #expect(try await TestPostgres.integer(url, "SELECT COUNT(*) FROM turn") == 1)
        #expect(try await TestPostgres.integer(url, "SELECT COUNT(*) FROM game") == 1)

        // A batch in doubt that had not gone in is written, under its id, like any other.
        let later = frames(5, from: 100)
        lossy.loseNext(.beforeCommit)
        for frame in later { node.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame) }
        #expect(await node.commitPending() == false)
        try await waitUntil { node.pendingCount == 0 && node.writer.storageReport.fault == nil }
        await node.close()

        let again = try await open(url, node: "doubter")
        let back = try #require(try await again.load().rooms.first { $0.snapshot.code == room.code.rawValue })
        #expect(back.frames == sent + later, "every frame once, in order")
        await again.close()
    }

    /// A PostgreSQL failover ends every session, the one holding the node id's lock with
    /// it: the node takes the lock back on a new connection, so a second process with its
    /// id is still refused. If another session took the id first, the node stops: two
    /// processes writing as one node would share its leases and batch ids.
    @Test func aNodeTakesItsIdBackAfterItsSessionEndsAndStopsWhenAnotherHasIt() async throws {
        let url = try await TestPostgres.freshDatabase()
        let store = try await openStore(url, node: "ident")
        let running = Task { try await store.run() }
        // This database's lock on the id (tests in other databases hold theirs).
        let lock = """
            FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND ((classid::bigint << 32) | objid::bigint) = hashtextextended('drawserver node ident', 0)
            """
        let holder = "SELECT pid::bigint " + lock
        let first = try #require(try await TestPostgres.integer(url, holder))
        let end = "SELECT pg_terminate_backend(pid) " + lock
        try await TestPostgres.execute(url, end)
        try await waitUntil(seconds: 10) { (try await TestPostgres.integer(url, holder)).map { $0 != first } ?? false }
        var quick = PostgresGameStore.Configuration()
        quick.identityPatience = .milliseconds(200)
        do {
            let second = try await PostgresGameStore.open(url: url, nodeID: "ident", configuration: quick, logger: logger)
            Issue.record("a second process got the node id")
            await second.close()
        } catch {
            #expect(error.reason.contains("already running"), "\(error)")
        }

        // Ended again, and another session is quicker to take the id.
        let rival = try await PostgresConnection.connect(configuration: url.connectionConfiguration(try url.tlsSettings()), id: 9, logger: logger)
        try await TestPostgres.execute(url, end)
        var taken = false
        for _ in 0..<300 where !taken {
            for try await held in try await rival.query(
                "SELECT pg_try_advisory_lock(hashtextextended('drawserver node ident', 0))", logger: logger
            ).decode(Bool.self) { taken = held }
            if !taken { try await Task.sleep(for: .milliseconds(10)) }
        }
        try #require(taken, "the rival got the id (the node was not quicker)")
        let outcome = await running.result
        #expect(throws: NodeIdentityTaken.self) { try outcome.get() }
        try await rival.close()
    }

    /// The directory read as changes: after one whole read, a node reads only the rows
    /// written since, and lists the same rooms a whole read would.
    @Test func theDirectoryIsReadAsChangesAndListsWhatAWholeReadWould() async throws {
        let url = try await TestPostgres.freshDatabase()
        let a = try await open(url, node: "na")
        let b = try await open(url, node: "nb")
        let now = Timestamp(milliseconds: 1_000)
        let letters = Array("ABCDEFGHJK")
        let codes = (0..<20).map { "PGDA" + String(letters[$0 / 10]) + String(letters[$0 % 10]) }
        var rooms = codes.map { StrokeStorageTests.drawingRoom($0) }
        for room in rooms { a.roomChanged(room.snapshot(now: now)) }
        await a.commitPending()

        var reads = PostgresGameStore.DirectoryReads()
        let first = try #require(await b.refreshDirectory(playersSince: 0, reads: &reads))
        #expect(first.allRooms.count == 20)
        #expect(Set(first.owners.values) == ["na"])
        let wholeRows = reads.rowsRead
        #expect(wholeRows >= 40, "a whole read returns every lease and room")

        // One room changes, one closes, one is made.
        let made = StrokeStorageTests.drawingRoom("PGDNEW")
        _ = rooms[1].handle(.skip, from: try #require(rooms[1].drawer), now: now)
        a.roomChanged(rooms[1].snapshot(now: now))
        a.roomClosed(rooms[2].code)
        a.roomChanged(made.snapshot(now: now))
        await a.commitPending()

        let second = try #require(await b.refreshDirectory(playersSince: 0, reads: &reads))
        let changedRows = reads.rowsRead - wholeRows
        #expect(changedRows < 10, "only what changed is read (\(changedRows) rows)")
        #expect(!second.allRooms.contains { $0.summary.code == rooms[2].code }, "a closed room leaves the directory")
        #expect(second.allRooms.contains { $0.summary.code == made.code }, "a new room joins it")

        var fresh = PostgresGameStore.DirectoryReads()
        let whole = try #require(await b.refreshDirectory(playersSince: 0, reads: &fresh))
        #expect(second.allRooms.map(\.summary.code) == whole.allRooms.map(\.summary.code))
        #expect(second.allRooms.map(\.summary) == whole.allRooms.map(\.summary))
        #expect(second.owners == whole.owners)
        await a.close()
        await b.close()
    }

    @Test func onlyOneNodeHoldsARoomAndAStaleOwnerIsFenced() async throws {
        let url = try await TestPostgres.freshDatabase()
        // Leases far longer than the test: expiry is made by hand below, so a loaded
        // machine cannot let one run out early.
        let a = try await open(url, node: "node-a", leaseMs: 600_000)
        let b = try await open(url, node: "node-b", leaseMs: 600_000)
        let lostOnA = LostRooms(of: a)
        let lostOnB = LostRooms(of: b)
        var room = StrokeStorageTests.drawingRoom("PGCCCC")
        let now = Timestamp(milliseconds: 1_000)

        // A writes first and so claims the room.
        a.roomChanged(room.snapshot(now: now))
        a.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frames(1)[0])
        await a.commitPending()
        #expect(a.store.keeper.withLock { $0.epoch(of: room.code) } == 1)
        #expect(await b.leases.acquire(room.code) == .heldElsewhere, "only one node holds the lease")

        // B's writes for A's room are refused before they reach the table.
        b.roomChanged(room.snapshot(now: now))
        await b.commitPending()
        // Told through the store's events, which a task of `LostRooms` reads.
        try await waitUntil { !lostOnB.rooms.isEmpty }
        #expect(lostOnB.rooms == [room.code])
        #expect(try await TestPostgres.string(url, "SELECT node_id FROM room WHERE code = 'PGCCCC'") == "node-a")

        // A stops renewing (a paused process): once the lease expires B takes over with a
        // higher epoch.
        try await TestPostgres.execute(url, "UPDATE room_leases SET expires_at = now() - interval '1 second' WHERE code = 'PGCCCC'")
        var takenAt: Int64?
        if case .acquired(let epoch) = await b.leases.acquire(room.code) { takenAt = epoch }
        #expect(takenAt == 2)
        b.store.keeper.withLock { k in
            k.forget(room.code)
            _ = k.want(room.code, now: b.now)
            _ = k.acquired(room.code, epoch: 2)
        }
        _ = room.handle(.chat("hello from b"), from: PlayerID("bob"), now: now + 10)
        b.roomChanged(room.snapshot(now: now + 10))
        await b.commitPending()
        #expect(try await TestPostgres.string(url, "SELECT node_id FROM room WHERE code = 'PGCCCC'") == "node-b")
        #expect(try await TestPostgres.integer(url, "SELECT epoch FROM room WHERE code = 'PGCCCC'") == 2)
        let strokeRows = try await TestPostgres.integer(url, "SELECT COUNT(*) FROM stroke WHERE room_code = 'PGCCCC'")

        // A wakes up and writes with its stale epoch: refused, and A gives the room up.
        a.roomChanged(room.snapshot(now: now + 20))
        a.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frames(1, from: 7)[0])
        a.roomClosed(room.code)
        await a.commitPending()
        try await waitUntil { !lostOnA.rooms.isEmpty }
        #expect(lostOnA.rooms == [room.code])
        #expect(a.statistics.fencedRooms == 1)
        #expect(a.store.keeper.withLock { $0.isLost(room.code) })
        #expect(try await TestPostgres.string(url, "SELECT node_id FROM room WHERE code = 'PGCCCC'") == "node-b", "the stale close deleted nothing")
        #expect(try await TestPostgres.integer(url, "SELECT COUNT(*) FROM stroke WHERE room_code = 'PGCCCC'") == strokeRows)
        // Later writes from A for the room are dropped without asking the store.
        a.roomChanged(room.snapshot(now: now + 30))
        await a.commitPending()
        #expect(a.statistics.fencedRooms == 1)

        // The lease's SQL: only the holder at its epoch renews.
        #expect(await b.leases.renew([(room.code, 2)]) == [room.code])
        #expect(await a.leases.renew([(room.code, 1)]) == [])
        #expect(await b.leases.renew([(room.code, 1)]) == [])
        await a.close()
        await b.close()
    }
}

/// Rooms a store reported lost, in order.
/// The rooms a store says were lost (`PostgresGameStore.Event.roomLost`), as it says them.
final class LostRooms: Sendable {
    private final class Codes: Sendable {
        let value = Mutex<[RoomCode]>([])
    }

    private let codes = Codes()
    private let follower: Task<Void, Never>

    init(of store: PostgresGameStore) {
        let codes = self.codes
        follower = Task {
            for await case .roomLost(let code) in store.events { codes.value.withLock { $0.append(code) } }
        }
    }

    deinit { follower.cancel() }

    var rooms: [RoomCode] { codes.value.withLock { $0 } }
}

extension PersistenceTests {
    /// Real server processes on PostgreSQL; nested in the serialized persistence suite so they
    /// never compete with its crash tests for the machine.
    @Suite("drawserver serve --store postgres://")
    struct PostgresServeTests {
        @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
        func sigkillMidTurnThenRestartBringsEverythingBack() async throws {
            let url = try await TestPostgres.freshDatabase()
            try await PersistenceTests.crashMidTurnAndRestart(store: ["--store", "\(url)", "--node-id", "crash-node"]) { code, player in
                let score = try await TestPostgres.string(url, """
                    SELECT m->>'score' FROM room, jsonb_array_elements(state::jsonb->'members') AS m
                    WHERE code = '\(code)' AND m->>'id' = '\(player)'
                    """)
                return score.flatMap { Int($0) }
            }
            #expect(try await TestPostgres.integer(url, "SELECT MAX(epoch) FROM room_leases") == 2, "the restarted node took its room back at a new epoch")
        }

        /// Another node takes a running room's lease over (as after this node paused past the
        /// expiry): the node's next renewal is refused, it stops running the room and sends its
        /// players to reconnect, and writes nothing more for it.
        @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
        func aNodeThatLosesARoomsLeaseStopsRunningIt() async throws {
            let url = try await TestPostgres.freshDatabase()
            let token = PersistenceTests.token
            let server = try await ServerProcess(["--store", "\(url)", "--node-id", "node-a", "--moderator-token", token, "--seed", "5", "--web-root", "web-static"])
            let (ada, bob) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port))
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let code = try await seat(ada, [bob])
            try await waitUntil {
                try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)' AND node_id = 'node-a' AND epoch = 1") == 1
            }
            try await TestPostgres.execute(url, """
                UPDATE room_leases SET node_id = 'node-b', epoch = epoch + 1, expires_at = now() + interval '1 minute' WHERE code = '\(code)'
                """)
            #expect(await ada.closeCode() == 1012)
            #expect(await bob.closeCode() == 1012)
            let reply = try await HTTP.get(port: server.port, path: "/api/rooms/\(code)", token: token)
            #expect(reply.status == 404, "the node no longer runs the room")
            #expect(try await TestPostgres.integer(url, "SELECT epoch FROM room WHERE code = '\(code)'") == 1, "nor writes it")
            #expect(try await TestPostgres.string(url, "SELECT node_id FROM room_leases WHERE code = '\(code)'") == "node-b")
            server.signal(SIGTERM)
            #expect(await server.waitForExit(seconds: 15) == 0)
        }

        /// Two nodes on one store, without a balancer: a token made on one resumes on the other
        /// at once (the other asks the store), and a join there for the first node's room is
        /// answered with a redirect to it.
        @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
        func twoNodesShareTokensAndRedirectJoins() async throws {
            let url = try await TestPostgres.freshDatabase()
            let one = try await ServerProcess(["--store", "\(url)", "--node-id", "one", "--web-root", "web-static", "--moderator-token", PersistenceTests.token])
            let two = try await ServerProcess(["--store", "\(url)", "--node-id", "two", "--web-root", "web-static"])
            let ada = TestClient.connect(port: one.port)
            try await ada.hello("Ada")
            let code = try await seat(ada, [])
            let bob = TestClient.connect(port: one.port)
            try await bob.hello("Bob")
            // Straight away on the other node, with the token: the same player.
            let moved = TestClient.connect(port: two.port)
            let welcome = try await moved.hello("Bob", token: bob.token)
            #expect(welcome["resumed"]?.boolValue == true)
            #expect(welcome["playerId"]?.stringValue == bob.playerID)
            // Node two asks the store on a miss, so the redirect comes even before its
            // directory (read every 0.5 s) lists the room.
            var redirect: [String: JSONValue] = [:]
            try await waitUntil {
                moved.send(#"{"t":"join","code":"\#(code)"}"#)
                guard let event = await moved.nextEvent(), case .json(.object(let reply)) = event else { return false }
                if reply["t"]?.stringValue == "redirect" { redirect = reply }
                return !redirect.isEmpty
            }
            #expect(redirect["room"]?.stringValue == code)
            #expect(redirect["node"]?.stringValue == "one")
            #expect(redirect["path"]?.stringValue == "/ws?node=one")
            // A seated player who comes back to node two for its room (it was there before
            // node two restarted, say) is sent to node one unasked: the store knows who is in
            // which room.
            let adaOnTwo = TestClient.connect(port: two.port, path: "/ws?node=two")
            #expect(try await adaOnTwo.hello("Ada", token: ada.token)["resumed"]?.boolValue == true)
            let sent = try await adaOnTwo.next("redirect", within: 5)
            #expect(sent["room"]?.stringValue == code)
            #expect(sent["node"]?.stringValue == "one")
            // One the balancer sent to node two although it asked for node one could not reach
            // node one: it is not sent back there (it would bounce), and waits for the room.
            let bounced = TestClient.connect(port: two.port, path: "/ws?node=one")
            #expect(try await bounced.hello("Ada", token: ada.token)["resumed"]?.boolValue == true)
            #expect(await bounced.nextEvent(within: 1.5) == nil, "no redirect back to the node it could not reach")
            // The room list of node two shows node one's public room once its directory
            // is read again (within 0.5 s).
            try await waitUntil {
                moved.send(#"{"t":"rooms"}"#)
                let listed = try await moved.next("rooms")["rooms"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
                return listed.contains(code)
            }
            // The moderator's view of a room names the node that runs it.
            let detail = try await PersistenceTests().room(one.port, code)
            #expect(detail["node"]?.stringValue == "one")
            #expect(detail["code"]?.stringValue == code)
            one.signal(SIGTERM)
            two.signal(SIGTERM)
            #expect(await one.waitForExit(seconds: 15) == 0)
            #expect(await two.waitForExit(seconds: 15) == 0)
        }

        /// The node running a room mid-turn is killed: once its lease runs out the other
        /// node takes the room over, with its players, scores and canvas, and a player who
        /// reconnects there with its token is put back in it.
        @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
        func aKilledNodesRoomResumesOnTheOtherNode() async throws {
            let url = try await TestPostgres.freshDatabase()
            let token = PersistenceTests.token
            let flags = ["--store", "\(url)", "--web-root", "web-static", "--moderator-token", token]
            let one = try await ServerProcess(flags + ["--node-id", "one"])
            let two = try await ServerProcess(flags + ["--node-id", "two"])
            try await waitUntil(seconds: 20) {
                try await StorageFaultProcessTests.metric("drawserver_cluster_nodes", port: two.port) == 2
            }
            let (ada, bob, cy) = (TestClient.connect(port: one.port), TestClient.connect(port: one.port), TestClient.connect(port: one.port))
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await cy.hello("Cy")
            // Cy does not guess, so the turn is still on when the node dies.
            let code = try await seat(ada, [bob, cy], settings: #"{"rounds":2,"drawTimeSec":120}"#)
            let word = try #require(try await startGame(ada)["word"]?.stringValue)
            let strokes = [
                strokeBytes(from: Point(x: 100, y: 100), to: Point(x: 700, y: 500), width: 12),
                strokeBytes(from: Point(x: 400, y: 40), to: Point(x: 410, y: 560), width: 30),
            ]
            for frame in strokes { ada.send(binary: frame) }
            _ = try await bob.nextBinary(bytes: strokes.map(\.count).reduce(0, +))
            bob.send(#"{"t":"guess","text":"\#(word)"}"#)
            let points = try #require(try await ada.next("guessed")["points"]?.intValue)
            let before = try await HTTP.get(port: one.port, path: "/api/rooms/\(code)/canvas.png", token: token)
            try await waitUntil(seconds: 30) {
                try await TestPostgres.string(url, """
                    SELECT m->>'score' FROM room, jsonb_array_elements(state::jsonb->'members') AS m
                    WHERE code = '\(code)' AND m->>'id' = '\(bob.playerID)'
                    """) == "\(points)"
            }

            // Node one's commits show in its metrics, as a SQLite node's do.
            #expect(try await StorageFaultProcessTests.metric("drawserver_db_commit_seconds_count", port: one.port) ?? 0 > 0)
            #expect(try await StorageFaultProcessTests.metric("drawserver_db_stroke_frames_total", port: one.port) ?? 0 >= 2)

            one.signal(SIGKILL)
            #expect(await one.waitForExit(seconds: 20) != nil)
            // Bob reconnects at once (as through the balancer): the same player on node two,
            // then back in the room once node two has taken it over.
            let back = TestClient.connect(port: two.port)
            let welcome = try await back.hello("Bob", token: bob.token)
            #expect(welcome["resumed"]?.boolValue == true)
            let room = try await back.next("room", within: 20)
            #expect(room["code"]?.stringValue == code)
            #expect(room["phase"]?.stringValue == "drawing")
            let players = room["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(players.first { $0["id"]?.stringValue == bob.playerID }?["score"]?.intValue == points)
            let detail = try await PersistenceTests().room(two.port, code)
            #expect(detail["node"]?.stringValue == "two")
            let after = try await HTTP.get(port: two.port, path: "/api/rooms/\(code)/canvas.png", token: token)
            #expect(after.body == before.body, "the canvas is pixel-identical on the new node")
            #expect(try await TestPostgres.integer(url, "SELECT epoch FROM room_leases WHERE code = '\(code)'") == 2)
            // The take-over shows in node two's metrics: one room, and one live node left.
            #expect(try await StorageFaultProcessTests.metric("drawserver_rooms_taken_over_total", port: two.port) == 1)
            try await waitUntil(seconds: 20) {
                try await StorageFaultProcessTests.metric("drawserver_cluster_nodes", port: two.port) == 1
            }
            two.signal(SIGTERM)
            #expect(await two.waitForExit(seconds: 15) == 0)
        }

        @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
        func aSecondNodeWithTheSameIDIsRefused() async throws {
            let url = try await TestPostgres.freshDatabase()
            let first = try await ServerProcess(["--store", "\(url)", "--node-id", "twin", "--web-root", "web-static"])
            let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--store", "\(url)", "--node-id", "twin"])
            #expect(status != 0)
            #expect(output.contains("cannot start: store \(url): node id twin is already running on this store"), "\(output)")
            // Another id on the same store is welcome.
            let other = try await ServerProcess(["--store", "\(url)", "--node-id", "other", "--web-root", "web-static"])
            first.signal(SIGTERM)
            other.signal(SIGTERM)
            #expect(await first.waitForExit(seconds: 15) == 0)
            #expect(await other.waitForExit(seconds: 15) == 0)
        }

        @Test func nodeIDsAreCheckedAndTheHostNameDefaultIsKeptValid() {
            #expect(ServeCommand.isNodeID("node-1.eu_west"))
            #expect(!ServeCommand.isNodeID(""))
            #expect(!ServeCommand.isNodeID("a b"))
            #expect(!ServeCommand.isNodeID("nœud"))
            #expect(!ServeCommand.isNodeID(String(repeating: "n", count: 65)))
            #expect(ServeCommand.defaultNodeID(hostName: "web 1.example.com") == "web1.example.com")
            #expect(ServeCommand.defaultNodeID(hostName: String(repeating: "h", count: 80)).count == 64)
            #expect(ServeCommand.defaultNodeID(hostName: "☃") == "node")
        }

        @Test func anUnreachableStoreIsAOneLineErrorAndANonZeroExit() async throws {
            // Port 1 on loopback: nothing listens there.
            let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--store", "postgres://drawserver@127.0.0.1:1/drawserver"])
            #expect(status != 0)
            let reason = output.split(separator: "\n").filter { $0.contains("cannot start") }
            #expect(reason.count == 1, "one line: \(output)")
            #expect(reason.first?.contains("postgres://drawserver@127.0.0.1:1/drawserver") == true)
            #expect(reason.first?.contains("cannot connect") == true)
        }

        @Test func aStoreURLThatIsNotPostgresIsRefused() async throws {
            let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--store", "mysql://root@127.0.0.1/x"])
            #expect(status != 0)
            #expect(output.contains("cannot start: store URL mysql://root@127.0.0.1/x: the scheme must be postgres://"))
        }

        @Test func keepingNothingExcludesEveryStore() async throws {
            let (withStore, storeOutput) = try await ServerProcess.run(["serve", "--port", "0", "--no-persistence", "--store", "postgres://x@127.0.0.1:1/x"])
            #expect(withStore != 0)
            #expect(storeOutput.contains("--no-persistence and --store exclude each other"))
            let (withDB, dbOutput) = try await ServerProcess.run(["serve", "--port", "0", "--no-persistence", "--db", "/tmp/never.sqlite"])
            #expect(withDB != 0)
            #expect(dbOutput.contains("--no-persistence and --db exclude each other"))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/never.sqlite"))
        }
    }
}
