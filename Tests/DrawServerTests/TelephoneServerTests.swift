import Canvas
import DrawProtocol
import Foundation
import GRDB
import ServerTestSupport
import Testing
@testable import DrawServer

/// A telephone game through a real server process (issue 36): four players, a kill -9
/// in the middle of the draw step, the drawing served for the describe step, the album
/// and the host's reveal back to the lobby.
@Suite("Telephone game (real child process)", .serialized, .timeLimit(.minutes(2)))
struct TelephoneServerTests {
    @Test func aGameSurvivesAKillMidDrawStepAndEndsInTheAlbum() async throws {
        let db = temporaryDatabasePath()
        var server = try await ServerProcess(["--db", db])
        let clients = (0..<4).map { _ in TestClient.connect(port: server.port) }
        let (ada, bob, cy, dee) = (clients[0], clients[1], clients[2], clients[3])
        for (client, name) in zip(clients, ["Ada", "Bob", "Cy", "Dee"]) { try await client.hello(name) }
        let code = try await seat(ada, [bob, cy, dee], settings: #"{"mode":"telephone","writeTimeSec":30,"drawTimeSec":60}"#)
        ada.send(#"{"t":"start"}"#)
        for (client, name) in zip(clients, ["Ada", "Bob", "Cy", "Dee"]) {
            let step = try await client.next("phoneStep")
            #expect(step["kind"]?.stringValue == "write" && step["steps"]?.intValue == 4 && step["step"]?.intValue == 0)
            client.send(#"{"t":"phoneSubmit","text":"\#(name)'s prompt"}"#)
        }
        // Step 1: Ada (seat 0) draws Dee's prompt (chain 3); nobody sees her frames.
        let drawStep = try await ada.next("phoneStep")
        #expect(drawStep["kind"]?.stringValue == "draw" && drawStep["prompt"]?.stringValue == "Dee's prompt")
        #expect(try await bob.next("phoneStep")["prompt"]?.stringValue == "Ada's prompt")
        ada.send(binary: strokeBytes(from: Point(x: 100, y: 100), to: Point(x: 600, y: 400), width: 20))
        bob.send(#"{"t":"phoneSubmit"}"#)
        try await cy.next("phoneProgress", where: { $0["done"]?.arrayValue?.count == 1 })
        #expect(!cy.history.contains { if case .binary = $0 { true } else { false } }, "a draw step's frames go to nobody")
        // Ada's drawing is stored with the room at its first frame, Bob's submission with
        // the room as it changed; the writer commits both, maybe in two batches.
        try await waitUntil(seconds: 10) {
            try StorageFaultProcessTests.storedRooms(db).contains(code) && (try? Self.storedSketch(db, code, submissions: true)) == true
        }

        server.signal(SIGKILL)
        _ = await server.waitForExit(seconds: 10)
        server = try await ServerProcess(["--db", db])
        let adaBack = TestClient.connect(port: server.port)
        #expect(try await adaBack.hello("Ada", token: ada.token)["resumed"]?.boolValue == true)
        #expect(try await adaBack.next("room")["phase"]?.stringValue == "telephone")
        let resent = try await adaBack.next("phoneStep")
        #expect(resent["kind"]?.stringValue == "draw" && resent["submitted"]?.boolValue == false)
        #expect(resent["prompt"]?.stringValue == "Dee's prompt")
        _ = try await adaBack.nextBinary()
        let (bobBack, cyBack, deeBack) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        try await bobBack.hello("Bob", token: bob.token)
        #expect(try await bobBack.next("phoneStep")["submitted"]?.boolValue == true, "Bob's submission survived")
        try await cyBack.hello("Cy", token: cy.token)
        try await cyBack.next("phoneStep")
        try await deeBack.hello("Dee", token: dee.token)
        try await deeBack.next("phoneStep")
        for client in [adaBack, cyBack, deeBack] { client.send(#"{"t":"phoneSubmit"}"#) }

        // Step 2: Bob describes Ada's drawing, served as a PNG at once.
        let describe = try await bobBack.next("phoneStep", where: { $0["step"]?.intValue == 2 })
        #expect(describe["kind"]?.stringValue == "describe")
        let png = try #require(describe["drawing"]?["png"]?.stringValue)
        let image = try await HTTP.get(port: server.port, path: png)
        #expect(image.status == 200 && image.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        for client in [adaBack, bobBack, cyBack, deeBack] { client.send(#"{"t":"phoneSubmit","text":"a line"}"#) }
        // Step 3: the last draw, left empty by everyone.
        try await cyBack.next("phoneStep", where: { $0["step"]?.intValue == 3 })
        for client in [adaBack, bobBack, cyBack, deeBack] { client.send(#"{"t":"phoneSubmit"}"#) }

        let album = try await cyBack.next("album")
        let chains = album["chains"]?.arrayValue ?? []
        #expect(chains.count == 4)
        #expect(chains.allSatisfy { $0["entries"]?.arrayValue?.count == 4 })
        let adaDrew = chains[3]["entries"]?.arrayValue?[1]
        #expect(adaDrew?["by"]?.stringValue == ada.playerID && adaDrew?["drawing"]?["timelapse"]?.stringValue != nil)
        for _ in 0..<19 { adaBack.send(#"{"t":"albumNext"}"#) }
        try await cyBack.next("albumReveal", where: { $0["chain"]?.intValue == 3 && $0["entry"]?.intValue == 3 })
        adaBack.send(#"{"t":"albumNext"}"#)
        try await cyBack.next("room", where: { $0["phase"]?.stringValue == "lobby" })
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }

    /// Whether the stored room's snapshot carries a telephone drawing with frames.
    /// Whether the stored room holds a drawing of the draw step, and (`submissions`) a
    /// submission of the step.
    static func storedSketch(_ db: String, _ code: String, submissions: Bool = false) throws -> Bool {
        let queue = try DatabaseQueue(path: db)
        defer { try? queue.close() }
        let state = try queue.read { db in try String.fetchOne(db, sql: "SELECT state FROM room WHERE code = ?", arguments: [code]) }
        guard let state, state.contains("\"sketches\":[{") else { return false }
        return !submissions || state.contains("\"submitted\":[\"")
    }
}
