import Canvas
import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

@Suite("Server authority and word secrecy on the wire", .timeLimit(.minutes(2)))
struct AuthorityTests {
    @Test func clientsCannotActForOthersOrSeeTheWord() async throws {
        let clock = ManualServerClock()
        try await withServer({ $0.moderatorToken = "mod" }, clock: clock) { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            let cy = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await cy.hello("Cy")
            let code = try await seat(ada, [bob, cy], settings: #"{"hints":5,"drawTimeSec":30}"#)
            ada.send(#"{"t":"start"}"#)
            let choices = try await ada.next("choose")["words"]?.arrayValue?.compactMap(\.stringValue) ?? []
            // Only the drawer chooses or skips.
            bob.send(#"{"t":"choose","index":0}"#)
            #expect(try await bob.next("error")["code"]?.stringValue == "not_drawer")
            ada.send(#"{"t":"choose","index":0}"#)
            let word = try #require(try await ada.next("turn")["word"]?.stringValue)
            bob.send(#"{"t":"skip"}"#)
            #expect(try await bob.next("error")["code"]?.stringValue == "not_drawer")
            // Fields a client adds are ignored: no score, no speaking for someone else.
            bob.send(#"{"t":"chat","text":"hello","score":9999,"word":"x","playerId":"\#(cy.playerID)","from":"\#(cy.playerID)"}"#)
            let chat = try await cy.next("chat")
            #expect(chat["from"]?.stringValue == bob.playerID)
            bob.send(#"{"t":"ready","ready":true,"playerId":"\#(cy.playerID)"}"#)
            try await bob.next("error")
            // A reconnect mid-turn shows the guesser no word either.
            cy.close()
            let again = TestClient.connect(port: port)
            try await again.hello("Cy", token: cy.token)
            try await again.next("turn")
            // Public routes without a token show no word.
            let list = try await HTTP.get(port: port, path: "/api/rooms")
            #expect(!list.text.lowercased().contains(word.lowercased()))
            #expect(try await HTTP.get(port: port, path: "/api/rooms/\(code)").status == 401)
            // Hints arrive over the turn's 30 s of game time, one second after another;
            // then the turn ends.
            for _ in 0..<31 { clock.advance(by: .seconds(1)) }
            try await bob.next("turnEnd")
            try await again.next("turnEnd")
            for client in [bob, again] {
                var sawTurnEnd = false
                for event in client.history {
                    guard case .json(let value) = event, case .object(let message) = value else { continue }
                    if message["t"] == .string("turnEnd") {
                        sawTurnEnd = true
                        break
                    }
                    let json = String(describing: value).lowercased()
                    #expect(message["word"] == nil, "a word field reached a guesser: \(json)")
                    #expect(message["words"] == nil)
                    if case .string(let mask)? = message["mask"] {
                        #expect(mask.filter(\.isLetter).count <= word.filter(\.isLetter).count / 2)
                    }
                    #expect(!json.contains("\"\(word.lowercased())\""))
                }
                #expect(sawTurnEnd)
            }
            #expect(choices.contains(word))
        }
    }
}
