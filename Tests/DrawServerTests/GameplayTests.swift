import Canvas
import DrawProtocol
import Foundation
import Rooms
import Testing
@testable import DrawServer

@Suite("Playing over real WebSockets", .timeLimit(.minutes(2)))
struct GameplayTests {
    @Test func threeClientsPlayAWholeRound() async throws {
        try await withServer { port in
            let clients = ["Ada", "Bob", "Cy"].map { _ in TestClient.connect(port: port) }
            for (client, name) in zip(clients, ["Ada", "Bob", "Cy"]) { try await client.hello(name) }
            try await seat(clients[0], Array(clients[1...]))
            clients[0].send(#"{"t":"start"}"#)

            for turn in 0..<3 {
                let drawer = clients[turn]
                let guessers = clients.enumerated().filter { $0.offset != turn }.map(\.element)
                let choose = try await drawer.next("choose")
                #expect(choose["words"]?.arrayValue?.count == 3)
                for guesser in guessers {
                    let choosing = try await guesser.next("choosing")
                    #expect(choosing["drawer"]?.stringValue == drawer.playerID)
                }
                drawer.send(#"{"t":"choose","index":1}"#)
                let word = try #require(try await drawer.next("turn")["word"]?.stringValue)
                for guesser in guessers {
                    let turnMessage = try await guesser.next("turn")
                    #expect(turnMessage["word"] == nil)
                    #expect(turnMessage["mask"]?.stringValue?.contains("_") == true)
                }
                let stroke = strokeBytes(from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
                drawer.send(binary: stroke)
                for guesser in guessers {
                    #expect(try await guesser.nextBinary() == stroke)
                }
                for guesser in guessers {
                    guesser.send(#"{"t":"chat","text":"\#(word.uppercased())"}"#)
                    let guessed = try await guesser.next("guessed") { $0["playerId"]?.stringValue == guesser.playerID }
                    #expect((guessed["points"]?.intValue ?? 0) >= 50)
                }
                let end = try await clients[0].next("turnEnd")
                #expect(end["word"]?.stringValue == word)
                #expect(end["reason"]?.stringValue == "allGuessed")
            }
            let gameEnd = try await clients[1].next("gameEnd")
            let ranking = gameEnd["ranking"]?.arrayValue ?? []
            #expect(ranking.count == 3)
            #expect(ranking.first?.objectValue?["place"]?.intValue == 1)
            // Back in the lobby afterwards.
            var phase = ""
            while phase != "lobby" { phase = try await clients[2].next("room")["phase"]?.stringValue ?? "" }
        }
    }

    @Test func lateJoinerReceivesTheCanvas() async throws {
        try await withServer { port in
            let (ada, bob, cy) = (TestClient.connect(port: port), TestClient.connect(port: port), TestClient.connect(port: port))
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await cy.hello("Cy")
            let code = try await seat(ada, [bob, cy])
            try await startGame(ada)
            let first = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 400, y: 300))
            let second = strokeBytes(from: Point(x: 700, y: 10), to: Point(x: 10, y: 590), width: 20)
            ada.send(binary: first)
            ada.send(binary: second)
            #expect(try await bob.nextBinary(bytes: first.count + second.count) == first + second)

            let dee = TestClient.connect(port: port)
            try await dee.hello("Dee")
            dee.send(#"{"t":"join","code":"\#(code)"}"#)
            let room = try await dee.next("room")
            #expect(room["phase"]?.stringValue == "drawing")
            #expect(room["word"] == nil)
            let canvas = try await dee.next("canvas")
            #expect(canvas["w"]?.intValue == 800)
            var replay = Drawing(size: .standard)
            _ = try replay.apply(frame: try await dee.nextBinary())
            var expected = Drawing(size: .standard)
            _ = try expected.apply(frame: first)
            _ = try expected.apply(frame: second)
            #expect(Renderer.render(replay) == Renderer.render(expected))
        }
    }

    @Test func resumedClientGetsItsSeatBack() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            var bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            try await startGame(ada)
            ada.send(binary: strokeBytes(from: Point(x: 50, y: 50), to: Point(x: 60, y: 500)))
            _ = try await bob.nextBinary()
            let (id, token) = (bob.playerID, bob.token)

            bob.close()
            var seenDisconnected = false
            while !seenDisconnected {
                let room = try await ada.next("room")
                seenDisconnected = room["players"]?.arrayValue?.contains {
                    $0.objectValue?["id"]?.stringValue == id && $0.objectValue?["connected"]?.boolValue == false
                } ?? false
            }

            bob = TestClient.connect(port: port)
            let welcome = try await bob.hello("Bob", token: token)
            #expect(welcome["resumed"]?.boolValue == true)
            #expect(welcome["playerId"]?.stringValue == id)
            let room = try await bob.next("room")
            #expect(room["phase"]?.stringValue == "drawing")
            #expect(room["players"]?.arrayValue?.count == 2)
            try await bob.next("canvas")
            #expect(!(try await bob.nextBinary()).isEmpty)
        }
    }

    @Test func badFramesGetTheirErrorsWhileTheGameGoesOn() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            let word = try #require(try await startGame(ada)["word"]?.stringValue)

            func expectError(_ client: TestClient, _ code: String, ref: String) async throws {
                let error = try await client.next("error")
                #expect(error["code"]?.stringValue == code)
                #expect(error["ref"]?.stringValue == ref)
            }
            bob.send("{not json")
            try await expectError(bob, "bad_json", ref: "")
            bob.send(#"{"t":"moonwalk"}"#)
            try await expectError(bob, "bad_message", ref: "moonwalk")
            // Over the 4 KiB text limit: refused undecoded, but still named by its `t`.
            bob.send(#"{"t":"chat","text":"\#(String(repeating: "x", count: 5000))"}"#)
            try await expectError(bob, "too_large", ref: "chat")
            bob.send(#"{"t":"choose","index":"zero"}"#)
            try await expectError(bob, "bad_message", ref: "choose")
            bob.send(binary: strokeBytes(from: Point(x: 1, y: 1), to: Point(x: 2, y: 2)))
            try await expectError(bob, "not_drawer", ref: "binary")
            ada.send(binary: [0x02, 0x01, 0x00, 0x00])
            try await expectError(ada, "bad_ops", ref: "binary")
            ada.send(binary: [0x01, 0x00, 0, 0, 0, 99, 0, 0])
            try await expectError(ada, "bad_ops", ref: "binary")

            bob.send(#"{"t":"guess","text":"\#(word)"}"#)
            try await ada.next("guessed")
            #expect(try await ada.next("turnEnd")["reason"]?.stringValue == "allGuessed")
        }
    }
}
