import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

/// Issue 36: the big-screen page at `/tv` and `/tv/CODE`, and the seatless join it makes.
@Suite("The big-screen view")
struct TVViewTests {
    @Test func theTVPageIsServedAtBothPathsAndAScreenJoinsAFullRoom() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tv-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let page = "<!doctype html><title>drawserver tv</title>"
        try page.write(to: root.appendingPathComponent("tv.html"), atomically: true, encoding: .utf8)
        try "<!doctype html>".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)

        try await withServer({ $0.webRoot = root.path }) { port in
            for path in ["/tv", "/tv/K7QX2M"] {
                let reply = try await HTTP.get(port: port, path: path)
                #expect(reply.status == 200 && reply.text == page, "\(path): \(reply.status)")
            }
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            let tv = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await tv.hello("TV")
            let code = try await seat(ada, [bob], settings: #"{"maxPlayers":2}"#)
            tv.send(#"{"t":"join","code":"\#(code)","watch":true}"#)
            let room = try await tv.next("room")
            let players = room["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let screen = players.first { $0["id"]?.stringValue == tv.playerID }
            #expect(screen?["watching"]?.boolValue == true && screen?["spectator"]?.boolValue == true)
            #expect(players.count == 3)
            // A player still finds the room full.
            let cy = TestClient.connect(port: port)
            try await cy.hello("Cy")
            cy.send(#"{"t":"join","code":"\#(code)"}"#)
            #expect(try await cy.next("error")["code"]?.stringValue == "room_full")
        }
    }
}
