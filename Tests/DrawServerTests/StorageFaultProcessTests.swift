import Canvas
import DrawProtocol
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import GRDB
import Rooms
import ServerTestSupport
import Testing

/// Storage faults on real server processes: a full disk while games run (simulated with the
/// test-only `DRAWSERVER_TEST_PAGE_LIMIT_FILE`), and databases that cannot be used at start-up.
@Suite("Storage faults (real child processes)", .serialized, .timeLimit(.minutes(3)))
struct StorageFaultProcessTests {
    static let token = "moderator-secret"

    /// A stroke of 120 points: a few hundred bytes, so the held queue grows quickly.
    static func longStroke(_ n: Int) -> [UInt8] {
        var cursor = StrokeCursor()
        let points = (0..<120).map { i in Point(x: Int32(20 + (i * 5 + n * 11) % 760), y: Int32(20 + (i * 7 + n * 3) % 560)) }
        return FrameCodec.encode([
            .begin(tool: .pen, color: RGB(r: UInt8(n % 200), g: 40, b: 90), width: 2, at: Point(x: 10, y: Int32(10 + n % 500))),
            .points(points),
            .end,
        ], cursor: &cursor)
    }

    static func health(_ port: Int) async throws -> [String: JSONValue] {
        let reply = try await HTTP.get(port: port, path: "/api/health", token: token)
        return JSONValue.parse(reply.body)?.objectValue?["storage"]?.objectValue ?? [:]
    }

    static func metric(_ name: String, port: Int) async throws -> Double? {
        let text = try await HTTP.get(port: port, path: "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    static func storedRooms(_ db: String) throws -> [String] {
        let queue = try DatabaseQueue(path: db)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT code FROM room ORDER BY code") }
    }

    @Test func aFullDiskIsHeldReportedAndRecoveredAndAKillAfterRecoveryLosesNothing() async throws {
        let db = temporaryDatabasePath()
        let limitFile = db + ".pages"
        let arguments = ["--db", db, "--moderator-token", Self.token, "--seed", "5", "--storage-queue-bytes", "65536", "--frame-rate", "400/1s", "--point-rate", "100000/1s"]
        let environment = ["DRAWSERVER_TEST_PAGE_LIMIT_FILE": limitFile]
        var server = try await ServerProcess(arguments, environment: environment)
        let port = server.port
        let (ada, bob, dee) = (TestClient.connect(port: port), TestClient.connect(port: port), TestClient.connect(port: port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        try await dee.hello("Dee")
        // Dee never guesses, so the turn goes on after Bob's guess.
        let code = try await seat(ada, [bob, dee], settings: #"{"rounds":2,"drawTimeSec":120}"#)
        let word = try #require(try await startGame(ada)["word"]?.stringValue)
        let before = (0..<5).map(Self.longStroke)
        for frame in before { ada.send(binary: frame) }
        _ = try await bob.nextBinary(bytes: before.map(\.count).reduce(0, +))
        try await waitUntil { try Self.storedRooms(db) == [code] }
        #expect(try await HTTP.get(port: port, path: "/readyz").status == 200)

        // The disk fills: no page may be added to the database.
        try "1".write(toFile: limitFile, atomically: true, encoding: .utf8)
        let during = (5..<400).map(Self.longStroke)
        for frame in during { ada.send(binary: frame) }
        // The game goes on: every frame is relayed, the guess is judged.
        _ = try await bob.nextBinary(bytes: during.map(\.count).reduce(0, +), within: 20)
        bob.send(#"{"t":"guess","text":"\#(word)"}"#)
        let points = try #require(try await bob.next("guessed")["points"]?.intValue)
        try await waitUntil { try await HTTP.get(port: port, path: "/readyz").status == 503 }
        #expect(try await HTTP.get(port: port, path: "/readyz").text == "storage failing: disk full")
        try await waitUntil { try await Self.health(port)["refusingNewRooms"]?.boolValue == true }
        let failing = try await Self.health(port)
        #expect(failing["ok"]?.boolValue == false && failing["fault"]?.stringValue == "disk_full")
        #expect((failing["heldBytes"]?.intValue ?? 0) > 0)
        let failures = try await Self.metric("drawserver_db_commit_failures_total", port: port) ?? 0
        #expect(failures > 0)
        #expect((try await Self.metric("drawserver_db_queued_bytes", port: port) ?? 0) > 0)
        // A new room is refused with a clear error; the room already open keeps playing.
        let cy = TestClient.connect(port: port)
        try await cy.hello("Cy")
        cy.send(#"{"t":"create","public":true}"#)
        let refusal = try await cy.next("error")
        #expect(refusal["code"]?.stringValue == "storage_unavailable" && refusal["ref"]?.stringValue == "create")
        ada.send(binary: Self.longStroke(400))
        _ = try await bob.nextBinary(bytes: Self.longStroke(400).count)
        let canvas = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
        #expect(try await Self.metric("drawserver_db_commit_failures_total", port: port) ?? 0 > failures, "each retry counts")

        // Space comes back.
        let lifted = ContinuousClock.now
        try FileManager.default.removeItem(atPath: limitFile)
        try await waitUntil { try await HTTP.get(port: port, path: "/readyz").status == 200 }
        print("storage recovered \(ContinuousClock.now - lifted) after the limit was lifted")
        #expect(try await Self.health(port)["ok"]?.boolValue == true)
        #expect(try await Self.metric("drawserver_db_queued_bytes", port: port) == 0)
        cy.send(#"{"t":"create","public":true}"#)
        let second = try #require(try await cy.next("room")["code"]?.stringValue)
        try await waitUntil { try Self.storedRooms(db).contains(second) }
        #expect(server.log.components(separatedBy: "storage failing: disk full").count == 2, "one line when the fault starts:\n\(server.log)")
        #expect(server.log.components(separatedBy: "storage recovered").count == 2, "one line when it clears")

        server.signal(SIGKILL)
        #expect(await server.waitForExit(seconds: 20) != nil)
        server = try await ServerProcess(arguments, environment: environment)
        let restored = try await HTTP.get(port: server.port, path: "/api/rooms/\(code)", token: Self.token)
        let room = JSONValue.parse(restored.body)?.objectValue ?? [:]
        let players = room["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(players.first { $0["id"]?.stringValue == bob.playerID }?["score"]?.intValue == points, "the score won during the fault")
        let after = try await HTTP.get(port: server.port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
        #expect(after.body == canvas.body, "the canvas drawn during the fault is back, pixel for pixel")
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }

    /// Whether file permissions can be made to apply: not root, or root that may drop the
    /// capabilities that bypass them (setpriv needs CAP_SETPCAP).
    static let permissionsApply: Bool = {
        guard geteuid() == 0 else { return true }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        probe.arguments = ["--bounding-set=-dac_override,-dac_read_search", "/bin/true"]
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// Runs `drawserver serve` on `db` as a process that file permissions apply to: as root,
    /// without the capabilities that bypass them.
    static func serve(_ db: String, environment: [String: String] = [:]) async throws -> (Int32, String) {
        let launcher = geteuid() == 0 ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search"] : []
        return try await ServerProcess.run(["serve", "--port", "0", "--db", db], environment: environment, via: launcher)
    }

    static func makeDatabase() async throws -> String {
        let db = temporaryDatabasePath()
        let server = try await ServerProcess(["--db", db])
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
        // Everything into the main file, so the file alone is the database.
        let queue = try DatabaseQueue(path: db)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        return db
    }

    static func cannotStartLine(_ output: String) -> String? {
        output.split(separator: "\n").first { $0.contains("cannot start") }.map(String.init)
    }

    @Test(.enabled(if: permissionsApply, "root without setpriv or CAP_SETPCAP: a read-only file cannot be made read-only for it"))
    func aReadOnlyDatabaseStopsTheServerWithOneLine() async throws {
        let db = try await Self.makeDatabase()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        let (status, output) = try await Self.serve(db)
        #expect(status != 0)
        let line = try #require(Self.cannotStartLine(output), "\(output)")
        #expect(line.contains(db) && line.contains("read-only"), "\(line)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes)
    }

    @Test func aDamagedSQLiteFileIsReportedAndNeverWritten() async throws {
        let db = try await Self.makeDatabase()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        try #require(bytes.count > 8_192)
        // The header stays valid (a real SQLite file), the pages after the first are scrambled.
        for i in 4_096..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 17) }
        try bytes.write(to: URL(fileURLWithPath: db))
        let (status, output) = try await Self.serve(db)
        #expect(status != 0)
        let line = try #require(Self.cannotStartLine(output), "\(output)")
        #expect(line.contains(db), "\(line)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes, "the damaged file is left as it was")
    }

    @Test func noSpaceForTheSchemaStopsTheServerWithOneLine() async throws {
        let db = temporaryDatabasePath()
        let limitFile = db + ".pages"
        try "1".write(toFile: limitFile, atomically: true, encoding: .utf8)
        let (status, output) = try await Self.serve(db, environment: ["DRAWSERVER_TEST_PAGE_LIMIT_FILE": limitFile])
        #expect(status != 0)
        let line = try #require(Self.cannotStartLine(output), "\(output)")
        #expect(line.contains("disk full"), "\(line)")
    }
}
