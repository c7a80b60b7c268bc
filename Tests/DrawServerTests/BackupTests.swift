import DrawProtocol
import Foundation
import GRDB
import ServerTestSupport
import Testing

/// `drawserver backup` copies a running server's database; the copy passes its integrity
/// check and a server started on it has the rooms and players back.
@Suite("Online backup", .serialized, .timeLimit(.minutes(2)))
struct BackupTests {
    @Test func aRunningServersDatabaseIsCopiedAndRestores() async throws {
        let db = temporaryDatabasePath()
        let copy = temporaryDatabasePath()
        defer { for path in [db, copy] { try? FileManager.default.removeItem(atPath: path) } }
        let server = try await ServerProcess(["--db", db])
        let ada = TestClient.connect(port: server.port)
        try await ada.hello("Ada")
        let code = try await seat(ada, [])
        // The room reaches the database in the next batch.
        try await waitUntil { (try? Self.roomCodes(in: db))?.contains(code) == true }

        let (status, output) = try await ServerProcess.run(["backup", "--db", db, "-o", copy])
        #expect(status == 0, "\(output)")
        #expect(output.contains("integrity_check ok"))
        #expect(try Self.roomCodes(in: copy).contains(code))
        let (again, refusal) = try await ServerProcess.run(["backup", "--db", db, "-o", copy])
        #expect(again != 0 && refusal.contains("exists"), "an existing copy is never overwritten")

        // Restore: the server stops, the copy takes the database's place.
        server.signal(SIGKILL)
        _ = await server.waitForExit(seconds: 20)
        let restored = try await ServerProcess(["--db", copy])
        let back = TestClient.connect(port: restored.port)
        let welcome = try await back.hello("Ada", token: ada.token)
        #expect(welcome["resumed"]?.boolValue == true)
        #expect(try await back.next("room")["code"]?.stringValue == code)
    }

    static func roomCodes(in path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT code FROM room") }
    }
}
