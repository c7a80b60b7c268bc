import Canvas
import DrawProtocol
import Foundation
import GRDB
@testable import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Bans and gallery settings as every store keeps them: run on SQLite and, when a test
/// server is set, on PostgreSQL.
enum ModerationContract {
    static func check(_ store: any ModerationArchive) async throws {
        let (ada, cy, dan) = (PlayerID("ada"), PlayerID("cy"), PlayerID("dan"))
        #expect(try await store.moderationChanges(sinceMs: 0) == ModerationChanges())
        try await store.storeBan(ada, untilMs: 5_000)
        try await store.storeListed(false, for: cy)
        try await store.storeListed(true, for: dan)
        #expect(try await store.moderationChanges(sinceMs: 0) == ModerationChanges(bans: [ada: 5_000], listed: [cy: false, dan: true]))
        try await store.storeBan(ada, untilMs: 9_000)
        try await store.storeListed(true, for: cy)
        #expect(try await store.moderationChanges(sinceMs: 0) == ModerationChanges(bans: [ada: 9_000], listed: [cy: true, dan: true]))
        #expect(try await store.moderationChanges(sinceMs: GameDatabase.wallClockMs + 60_000) == ModerationChanges(), "nothing changed since")
    }
}

@Suite("Bans and gallery settings on SQLite", .timeLimit(.minutes(1)))
struct ModerationStoreTests {
    @Test func bansAndSettingsAreKeptAndReadBack() async throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ModerationContract.check(try GameDatabase(path: path))
        #expect(try await GameDatabase(path: path).moderationChanges(sinceMs: 0).bans.count == 1, "reopened")
    }

    @Test func moderationTakesWhatTheStoreKept() {
        let moderation = Moderation()
        let now = Timestamp(milliseconds: 1_000)
        let (ada, bob, cy) = (PlayerID("ada"), PlayerID("bob"), PlayerID("cy"))
        let banned = moderation.apply(
            ModerationChanges(bans: [ada: 50_000, bob: 9_000], listed: [cy: false]), now: now, wallMs: 10_000
        )
        #expect(banned == [ada], "bob's ban ended before the start")
        #expect(!moderation.isBanned(bob, now: now) && moderation.hasOptedOut(cy))
        // Read again (the poll's windows overlap): not new, and the setting follows the store.
        #expect(moderation.apply(ModerationChanges(bans: [ada: 50_000], listed: [cy: true]), now: now, wallMs: 10_000).isEmpty)
        #expect(!moderation.hasOptedOut(cy))
        #expect(moderation.isBanned(ada, now: now + 39_999) && !moderation.isBanned(ada, now: now + 40_000), "its end on the server clock")
    }
}

@Suite("Bans and gallery settings on PostgreSQL", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresModerationStoreTests {
    @Test func bansAndSettingsAreKeptAndEveryNodeSeesThem() async throws {
        let url = try await TestPostgres.freshDatabase()
        let one = try await PostgresGameStore.open(url: url, nodeID: "one", logger: TestPostgres.logger)
        try await ModerationContract.check(one)
        let two = try await PostgresGameStore.open(url: url, nodeID: "two", logger: TestPostgres.logger)
        try await two.storeBan(PlayerID("eve"), untilMs: 77)
        #expect(try await one.moderationChanges(sinceMs: 0).bans[PlayerID("eve")] == 77, "a ban made on one node is read on another")
        await one.close()
        await two.close()
    }
}

extension PersistenceTests {
    /// A moderator's ban and a player's gallery setting survive a restart (SIGTERM, then a
    /// new process on the same database), and a drawing no longer on the node's shelf is
    /// reported from `/gallery` with its evidence read from the database.
    @Test func bansAndGallerySettingsSurviveARestart() async throws {
        let db = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: db) }
        let arguments = ["--db", db, "--moderator-token", Self.token, "--web-root", "web-static"]
        var server = try await ServerProcess(arguments)
        let (ada, bob, cy) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        try await cy.hello("Cy")
        cy.send(#"{"t":"gallery","listed":false}"#)
        #expect(try await cy.next("gallery")["listed"]?.boolValue == false)

        // Ada draws a turn that Bob guesses, then says something rude; Bob reports it and
        // the moderator bans her.
        try await seat(ada, [bob])
        let word = try #require(try await startGame(ada)["word"]?.stringValue)
        ada.send(binary: GalleryServerTests.frame)
        _ = try await bob.nextBinary()
        bob.send(#"{"t":"guess","text":"\#(word)"}"#)
        let drawing = try #require(try await bob.next("turnEnd")["drawing"]?.objectValue?["id"]?.stringValue)
        ada.send(#"{"t":"chat","text":"you all draw badly"}"#)
        try await bob.next("chat", where: { $0["text"]?.stringValue == "you all draw badly" })
        bob.send(#"{"t":"report","kind":"chat","from":"\#(ada.playerID)","text":"you all draw badly","reason":"offensive"}"#)
        let report = try #require(try await bob.next("reported")["id"]?.stringValue)
        #expect(try await HTTP.request("POST", port: server.port, path: "/api/reports/\(report)/ban", token: Self.token).status == 204)
        try await ada.next("kicked")
        // The gallery setting is stored just after its answer, the turn within a batch.
        try await waitUntil {
            let queue = try DatabaseQueue(path: db)
            defer { try? queue.close() }
            return try queue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM gallery_setting WHERE player_id = ? AND listed = 0", arguments: [cy.playerID]) == 1
                    && Int.fetchOne(db, sql: "SELECT COUNT(*) FROM turn WHERE drawing_id = ?", arguments: [drawing]) == 1
            }
        }
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)

        server = try await ServerProcess(arguments)
        let port = server.port
        // Ada comes back with her token: still banned.
        let ada2 = TestClient.connect(port: port)
        try await ada2.hello("Ada", token: ada.token)
        #expect(ada2.playerID == ada.playerID)
        ada2.send(#"{"t":"create","public":true}"#)
        #expect(try await ada2.next("error")["code"]?.stringValue == "banned", "the ban outlived the restart")

        // Cy does not repeat her setting: the server kept it, so her drawing from a public
        // room stays off the public gallery (listed to her game's players only).
        let (cy2, dan) = (TestClient.connect(port: port), TestClient.connect(port: port))
        try await cy2.hello("Cy", token: cy.token)
        try await dan.hello("Dan")
        try await seat(cy2, [dan])
        let cyWord = try #require(try await startGame(cy2)["word"]?.stringValue)
        cy2.send(binary: GalleryServerTests.frame)
        _ = try await dan.nextBinary()
        dan.send(#"{"t":"guess","text":"\#(cyWord)"}"#)
        let cyDrawing = try #require(try await dan.next("turnEnd")["drawing"]?.objectValue?["id"]?.stringValue)
        try await waitUntil { try await GalleryServerTests.listed(port, "/api/gallery/mine", token: dan.token).contains(cyDrawing) }
        let gallery = try await GalleryServerTests.listed(port, "/api/gallery")
        #expect(gallery.contains(drawing) && !gallery.contains(cyDrawing), "cy's setting outlived the restart")

        // Ada's drawing from before the restart is on no shelf now: a report from /gallery
        // takes its evidence from the database.
        let filed = try await HTTP.request("POST", port: port, path: "/api/drawings/\(drawing)/report", token: bob.token, body: #"{"reason":"other"}"#)
        #expect(filed.status == 201)
        let id = try #require(JSONValue.parse(filed.body)?.objectValue?["id"]?.stringValue)
        let snapshot = try await HTTP.get(port: port, path: "/api/reports/\(id)/snapshot.png", token: Self.token)
        let png = try await HTTP.get(port: port, path: "/d/\(drawing).png")
        #expect(snapshot.status == 200 && snapshot.body == png.body)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }
}

extension PersistenceTests {
    /// A canvas reported while drawn, then a restart (SIGTERM) mid-turn: when the restored
    /// turn ends, the stored report names its drawing, linked in the turn's own batch.
    @Test func aCanvasReportedBeforeARestartIsLinkedWhenItsTurnEndsAfterIt() async throws {
        let db = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: db) }
        try await Self.reportRestartAndLink(store: ["--db", db])
    }

    /// The restart of `aCanvasReportedBeforeARestartIsLinkedWhenItsTurnEndsAfterIt` on the
    /// store `store` names (`--db FILE` or `--store postgres://...`).
    static func reportRestartAndLink(store: [String]) async throws {
        let arguments = store + ["--moderator-token", Self.token, "--web-root", "web-static"]
        var server = try await ServerProcess(arguments)
        let (ada, bob) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        try await seat(ada, [bob], settings: #"{"rounds":1,"drawTimeSec":120}"#)
        let word = try #require(try await startGame(ada)["word"]?.stringValue)
        ada.send(binary: GalleryServerTests.frame)
        _ = try await bob.nextBinary()
        bob.send(#"{"t":"report","kind":"drawing","reason":"offensive"}"#)
        let report = try #require(try await bob.next("reported")["id"]?.stringValue)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)

        server = try await ServerProcess(arguments)
        let port = server.port
        let (ada2, bob2) = (TestClient.connect(port: port), TestClient.connect(port: port))
        #expect(try await ada2.hello("Ada", token: ada.token)["resumed"]?.boolValue == true)
        #expect(try await bob2.hello("Bob", token: bob.token)["resumed"]?.boolValue == true)
        try await bob2.next("room")
        bob2.send(#"{"t":"guess","text":"\#(word)"}"#)
        let drawing = try #require(try await bob2.next("turnEnd")["drawing"]?.objectValue?["id"]?.stringValue)
        try await waitUntil {
            let reply = try await HTTP.get(port: port, path: "/api/reports", token: Self.token)
            let open = JSONValue.parse(reply.body)?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == report }
            return open?["drawing"]?.stringValue == drawing && open?["turn"]?.stringValue == "ended"
        }
        #expect(try await HTTP.request("POST", port: port, path: "/api/reports/\(report)/remove", token: Self.token).status == 204)
        #expect(try await HTTP.get(port: port, path: "/d/\(drawing).png").status == 404)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }
}

extension PersistenceTests.PostgresServeTests {
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func aCanvasReportedBeforeARestartIsLinkedWhenItsTurnEndsAfterIt() async throws {
        let url = try await TestPostgres.freshDatabase()
        try await PersistenceTests.reportRestartAndLink(store: ["--store", "\(url)", "--node-id", "link-node"])
    }

    /// Two nodes on one store: a moderator on node two bans a player playing on node one;
    /// node one removes her from her room and refuses her within its 2 s poll, and node
    /// two refuses her when she comes there.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func aBanMadeOnOneNodeHoldsOnTheOther() async throws {
        let url = try await TestPostgres.freshDatabase()
        let token = PersistenceTests.token
        let one = try await ServerProcess(["--store", "\(url)", "--node-id", "one", "--moderator-token", token])
        let two = try await ServerProcess(["--store", "\(url)", "--node-id", "two", "--moderator-token", token])
        let (ada, bob) = (TestClient.connect(port: one.port), TestClient.connect(port: one.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        try await seat(ada, [bob])
        ada.send(#"{"t":"chat","text":"you all draw badly"}"#)
        try await bob.next("chat", where: { $0["text"]?.stringValue == "you all draw badly" })
        bob.send(#"{"t":"report","kind":"chat","from":"\#(ada.playerID)","text":"you all draw badly","reason":"offensive"}"#)
        let report = try #require(try await bob.next("reported")["id"]?.stringValue)
        #expect(try await HTTP.request("POST", port: two.port, path: "/api/reports/\(report)/ban", token: token).status == 204)
        try await ada.next("kicked", within: 10)
        ada.send(#"{"t":"create","public":true}"#)
        #expect(try await ada.next("error")["code"]?.stringValue == "banned", "node one honours node two's ban")

        let far = TestClient.connect(port: two.port)
        try await far.hello("Ada", token: ada.token)
        #expect(far.playerID == ada.playerID)
        far.send(#"{"t":"quickplay"}"#)
        #expect(try await far.next("error")["code"]?.stringValue == "banned")
        one.signal(SIGTERM)
        two.signal(SIGTERM)
        #expect(await one.waitForExit(seconds: 15) == 0)
        #expect(await two.waitForExit(seconds: 15) == 0)
    }
}
