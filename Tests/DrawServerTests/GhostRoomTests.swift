import DrawProtocol
import Foundation
import GRDB
import ServerTestSupport
import Testing

/// Quick play never seats a newcomer among ghosts (issue 38): after a kill -9 and restart, a
/// restored public room whose players have not come back is neither listed nor picked, until
/// one of them is back.
@Suite("Rooms nobody is connected to", .serialized, .timeLimit(.minutes(2)))
struct GhostRoomTests {
    @Test func aRestoredRoomIsOfferedOnlyOnceSomeoneIsBack() async throws {
        let db = temporaryDatabasePath()
        // No --seed: a seeded server hands the same tokens out again after a restart.
        let arguments = ["--db", db, "--web-root", "web-static"]
        var server = try await ServerProcess(arguments)
        let (ada, bob) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        let code = try await seat(ada, [bob])
        // The room's row (with both seats) is committed before the kill.
        try await waitUntil(seconds: 30) {
            var readOnly = Configuration()
            readOnly.readonly = true
            let queue = try DatabaseQueue(path: db, configuration: readOnly)
            return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM seat WHERE room_code = ?", arguments: [code]) } == 2
        }
        server.signal(SIGKILL)
        #expect(await server.waitForExit(seconds: 20) != nil)

        server = try await ServerProcess(arguments)
        let newcomer = TestClient.connect(port: server.port)
        try await newcomer.hello("Cy")
        newcomer.send(#"{"t":"rooms"}"#)
        let listed = try await newcomer.next("rooms")["rooms"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
        #expect(!listed.contains(code), "a room with nobody connected is not offered")
        newcomer.send(#"{"t":"quickplay"}"#)
        let seated = try await newcomer.next("room")
        #expect(seated["code"]?.stringValue != code, "quick play made a room instead of seating Cy among ghosts")
        let players = seated["players"]?.arrayValue ?? []
        #expect(players.count == 1)

        // Ada comes back: her room is offered again, and the next quick player joins her
        // there (as many people connected as Cy's room, and fuller).
        let back = TestClient.connect(port: server.port)
        #expect(try await back.hello("Ada", token: ada.token)["resumed"]?.boolValue == true)
        #expect(try await back.next("room")["code"]?.stringValue == code)
        let dee = TestClient.connect(port: server.port)
        try await dee.hello("Dee")
        dee.send(#"{"t":"rooms"}"#)
        let relisted = try await dee.next("rooms")["rooms"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.stringValue } ?? []
        #expect(relisted.contains(code))
        dee.send(#"{"t":"quickplay"}"#)
        #expect(try await dee.next("room")["code"]?.stringValue == code)
        server.signal(SIGKILL)
        _ = await server.waitForExit(seconds: 20)
    }
}
