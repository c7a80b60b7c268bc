import Canvas
import DrawProtocol
import Foundation
import GRDB
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Languages, avatars, ratings and chat history over real WebSockets (docs/PROTOCOL.md 8).
@Suite("Party features over real WebSockets", .timeLimit(.minutes(2)))
struct PartyTests {
    static let avatar = #"{"color":11,"eyes":5,"mouth":2,"accessory":6}"#

    func avatarJSON(_ value: JSONValue?) -> [String: Int] {
        (value?.objectValue ?? [:]).compactMapValues(\.intValue)
    }

    /// The types of the messages up to and including the first `canvas` (or `until`).
    func types(_ client: TestClient, until last: String = "canvas") async throws -> [String] {
        var types: [String] = []
        while let event = await client.nextEvent(within: 5) {
            guard case .json(.object(let object)) = event, let type = object["t"]?.stringValue else { continue }
            types.append(type)
            if type == last { return types }
        }
        throw TestClientError.timeout("no \(last) after \(types)")
    }

    @Test func theLanguagesRouteListsEveryList() async throws {
        try await withServer { port in
            let reply = try await HTTP.get(port: port, path: "/api/languages")
            #expect(reply.status == 200)
            let list = JSONValue.parse(reply.body)?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(list.compactMap { $0["code"]?.stringValue } == ["en", "de", "fr", "es", "pt", "it", "ru", "ar"])
            #expect(list.compactMap { $0["name"]?.stringValue } == ["English", "Deutsch", "Français", "Español", "Português", "Italiano", "Русский", "العربية"])
            #expect((list.first?["words"]?.intValue ?? 0) >= 2000)
            #expect(list.dropFirst().allSatisfy { ($0["words"]?.intValue ?? 0) >= 800 })
        }
    }

    @Test func aBadAvatarRefusesTheHelloAndAGoodOneIsShownEverywhere() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port), bob = TestClient.connect(port: port)
            ada.send(#"{"t":"hello","name":"Ada","avatar":{"color":12,"eyes":0,"mouth":0,"accessory":0}}"#)
            let error = try await ada.next("error")
            #expect(error["code"]?.stringValue == "bad_message" && error["ref"]?.stringValue == "hello")
            ada.send(#"{"t":"hello","name":"Ada","avatar":{"color":1,"eyes":0,"mouth":0,"accessory":0,"script":"x"}}"#)
            #expect(try await ada.next("error")["code"]?.stringValue == "bad_message")
            // The connection stayed open: a valid hello now works.
            ada.send(#"{"t":"hello","name":"Ada","avatar":\#(Self.avatar)}"#)
            let welcome = try await ada.next("welcome")
            ada.playerID = welcome["playerId"]?.stringValue ?? ""
            ada.token = welcome["token"]?.stringValue ?? ""
            let mine = ["color": 11, "eyes": 5, "mouth": 2, "accessory": 6]
            #expect(avatarJSON(welcome["avatar"]) == mine)
            let bobWelcome = try await bob.hello("Bob")
            #expect(avatarJSON(bobWelcome["avatar"]).count == 4, "a standard avatar without one")

            let code = try await seat(ada, [bob])
            let joined = try await ada.next("joined")
            #expect(avatarJSON(joined["player"]?.objectValue?["avatar"]) == avatarJSON(bobWelcome["avatar"]))
            let room = bob.history.compactMap { event -> [String: JSONValue]? in
                guard case .json(.object(let o)) = event, o["t"]?.stringValue == "room" else { return nil }
                return o
            }.last ?? [:]
            let players = room["players"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(avatarJSON(players.first { $0["id"]?.stringValue == ada.playerID }?["avatar"]) == mine)
            let moderatorView = try await HTTP.get(port: port, path: "/api/rooms/\(code)")
            #expect(moderatorView.status == 401, "the moderator view needs a token (checked with one in the process test)")

            // An invitation shows who invites.
            let cy = TestClient.connect(port: port)
            try await cy.hello("Cy")
            ada.send(#"{"t":"invite","playerId":"\#(cy.playerID)"}"#)
            let invited = try await cy.next("invited")
            #expect(avatarJSON(invited["from"]?.objectValue?["avatar"]) == mine)

            // Resuming without an avatar keeps it; with one replaces it, also in the room.
            ada.close()
            let again = TestClient.connect(port: port)
            #expect(avatarJSON(try await again.hello("Ada", token: ada.token)["avatar"]) == mine)
            again.close()
            let third = TestClient.connect(port: port)
            third.send(#"{"t":"hello","name":"Ada","token":"\#(ada.token)","avatar":{"color":0,"eyes":1,"mouth":2,"accessory":3}}"#)
            #expect(avatarJSON(try await third.next("welcome")["avatar"]) == ["color": 0, "eyes": 1, "mouth": 2, "accessory": 3])
            let seen = try await bob.next("room") { room in
                let adaEntry = room["players"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == ada.playerID }
                return adaEntry?["avatar"]?.objectValue?["color"]?.intValue == 0 && adaEntry?["connected"]?.boolValue == true
            }
            #expect(seen["code"]?.stringValue == code)
        }
    }

    @Test func ratingWaitsForTheChatBudget() async throws {
        try await withServer { port in
            let (ada, bob) = (TestClient.connect(port: port), TestClient.connect(port: port))
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            ada.send(#"{"t":"start"}"#)
            try await ada.next("choose")
            ada.send(#"{"t":"choose","index":0}"#)
            try await bob.next("turn")
            // Five per 3 s by default: the sixth flip waits for a token (about 0.6 s).
            let before = try await messagesDelayed(port: port)
            for i in 0..<6 { bob.send(#"{"t":"rate","value":"\#(i % 2 == 0 ? "like" : "dislike")"}"#) }
            var last: [String: JSONValue] = [:]
            for _ in 0..<6 { last = try await ada.next("ratings") }
            #expect(last["likes"]?.intValue == 0 && last["dislikes"]?.intValue == 1)
            #expect(try await messagesDelayed(port: port) - before >= 1, "the sixth rating waited for a token")
        }
    }

    @Test func aGermanGameIsJudgedWithFoldingRatedAndItsChatComesBack() async throws {
        try await withServer { port in
            let (ada, bob, cy) = (TestClient.connect(port: port), TestClient.connect(port: port), TestClient.connect(port: port))
            let dee = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await cy.hello("Cy")
            try await dee.hello("Dee")
            // Dee keeps guessing, so the turn goes on while Cy is away.
            try await seat(ada, [bob, cy, dee], settings: #"{"rounds":1,"language":"de","wordChoices":5}"#)
            ada.send(#"{"t":"start"}"#)
            let offered = try await ada.next("choose")["words"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let german = Set(WordList.words(for: "de"))
            #expect(offered.count == 5 && offered.allSatisfy(german.contains))
            ada.send(#"{"t":"choose","index":0}"#)
            let word = try #require(try await ada.next("turn")["word"]?.stringValue)

            // Ratings: the drawer may not, a guesser may, the counts reach the drawer.
            ada.send(#"{"t":"rate","value":"like"}"#)
            let refusal = try await ada.next("error")
            #expect(refusal["code"]?.stringValue == "not_guesser" && refusal["ref"]?.stringValue == "rate")
            bob.send(#"{"t":"rate","value":"love"}"#)
            #expect(try await bob.next("error")["code"]?.stringValue == "bad_message")
            bob.send(#"{"t":"rate","value":"like"}"#)
            let counts = try await ada.next("ratings")
            #expect(counts["likes"]?.intValue == 1 && counts["dislikes"]?.intValue == 0)

            // Folded: no umlauts, ß as ss, capitals.
            let typed = word.replacingOccurrences(of: "ß", with: "ss").folding(options: .diacriticInsensitive, locale: nil).uppercased()
            bob.send(#"{"t":"guess","text":"\#(typed)"}"#)
            try await ada.next("guessed") { $0["playerId"]?.stringValue == bob.playerID }
            bob.send(#"{"t":"chat","text":"only knowers read this"}"#)
            try await ada.next("chat") { $0["text"]?.stringValue == "only knowers read this" }
            cy.send(#"{"t":"chat","text":"ein Hund?"}"#)
            try await bob.next("chat") { $0["text"]?.stringValue == "ein Hund?" }

            // Cy reloads: room, its history without the knowers' line, one turn, the canvas.
            cy.close()
            try await ada.next("room") { room in
                room["players"]?.arrayValue?.compactMap(\.objectValue).contains { $0["id"]?.stringValue == cy.playerID && $0["connected"]?.boolValue == false } == true
            }
            let back = TestClient.connect(port: port)
            try await back.hello("Cy", token: cy.token)
            let order = try await types(back)
            #expect(order == ["room", "chatHistory", "gameDrawings", "turn", "canvas"])
            let history = back.history.compactMap { event -> [String]? in
                guard case .json(.object(let o)) = event, o["t"]?.stringValue == "chatHistory" else { return nil }
                return o["lines"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
            }.first
            #expect(history == ["ein Hund?"])
            let room = back.history.compactMap { event -> [String: JSONValue]? in
                guard case .json(.object(let o)) = event, o["t"]?.stringValue == "room" else { return nil }
                return o
            }.first
            #expect(room?["ratings"]?.objectValue?["likes"]?.intValue == 1)
            #expect(room?["myRating"] == .null)
            // Bob reloads too: he sees the knowers' line.
            bob.close()
            let bobBack = TestClient.connect(port: port)
            try await bobBack.hello("Bob", token: bob.token)
            let bobHistory = try await bobBack.next("chatHistory")["lines"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
            #expect(bobHistory == ["only knowers read this", "ein Hund?"])

            back.send(#"{"t":"guess","text":"\#(word)"}"#)
            dee.send(#"{"t":"guess","text":"\#(word.lowercased())"}"#)
            let end = try await ada.next("turnEnd")
            #expect(end["ratings"]?.objectValue?["likes"]?.intValue == 1)
        }
    }
}

@Suite("Party features survive a restart (real child processes)", .serialized, .timeLimit(.minutes(3)))
struct PartyRestartTests {
    static let token = "moderator-secret"

    @Test func avatarsHistoryAndRatingsComeBackAndTheTurnIsSentOnce() async throws {
        let db = temporaryDatabasePath()
        let arguments = ["--db", db, "--moderator-token", Self.token, "--seed", "11", "--web-root", "web-static"]
        var server = try await ServerProcess(arguments)
        let (ada, bob, cy) = (TestClient.connect(port: server.port), TestClient.connect(port: server.port), TestClient.connect(port: server.port))
        ada.send(#"{"t":"hello","name":"Ada","avatar":{"color":3,"eyes":4,"mouth":5,"accessory":1}}"#)
        let adaWelcome = try await ada.next("welcome")
        ada.playerID = adaWelcome["playerId"]?.stringValue ?? ""
        ada.token = adaWelcome["token"]?.stringValue ?? ""
        try await bob.hello("Bob")
        try await cy.hello("Cy")
        let code = try await seat(ada, [bob, cy], settings: #"{"rounds":2,"drawTimeSec":120,"language":"ru"}"#)
        let word = try #require(try await startGame(ada)["word"]?.stringValue)
        #expect(WordList.words(for: "ru").contains(word))
        bob.send(#"{"t":"guess","text":"\#(word.uppercased())"}"#)
        try await ada.next("guessed")
        bob.send(#"{"t":"chat","text":"\#(word) is easy"}"#)
        try await ada.next("chat")
        cy.send(#"{"t":"chat","text":"a cat?"}"#)
        try await ada.next("chat") { $0["text"]?.stringValue == "a cat?" }
        cy.send(#"{"t":"rate","value":"dislike"}"#)
        try await ada.next("ratings")
        // Once the rating, the last change, is committed (changes commit in order).
        try await waitUntil {
            let queue = try DatabaseQueue(path: db)
            defer { try? queue.close() }
            let state = try await queue.read { db in try String.fetchOne(db, sql: "SELECT state FROM room WHERE code = ?", arguments: [code]) }
            return state?.contains(#""dislike""#) == true
        }
        server.signal(SIGKILL)
        #expect(await server.waitForExit(seconds: 20) != nil)

        server = try await ServerProcess(arguments)
        let view = try await HTTP.get(port: server.port, path: "/api/rooms/\(code)", token: Self.token)
        let restored = JSONValue.parse(view.body)?.objectValue ?? [:]
        let adaEntry = restored["players"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == ada.playerID }
        #expect(adaEntry?["avatar"]?.objectValue?["color"]?.intValue == 3)
        #expect(restored["ratings"]?.objectValue?["dislikes"]?.intValue == 1)

        // Cy resumes after the restart: exactly one turn, and no line that names the word.
        let cyBack = TestClient.connect(port: server.port)
        try await cyBack.hello("Cy", token: cy.token)
        var order: [String] = []
        while let event = await cyBack.nextEvent(within: 5) {
            guard case .json(.object(let object)) = event, let type = object["t"]?.stringValue else { continue }
            order.append(type)
            if type == "canvas" { break }
        }
        #expect(order == ["room", "chatHistory", "gameDrawings", "turn", "canvas"])
        let cyLines = cyBack.history.compactMap { event -> [String]? in
            guard case .json(.object(let o)) = event, o["t"]?.stringValue == "chatHistory" else { return nil }
            return o["lines"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
        }.first
        #expect(cyLines == ["a cat?"])
        // The game's context came back from the store too: Bob's guess (issue 39).
        let cyKinds = cyBack.history.compactMap { event -> [String]? in
            guard case .json(.object(let o)) = event, o["t"]?.stringValue == "chatHistory" else { return nil }
            return o["lines"]?.arrayValue?.compactMap { $0.objectValue?["kind"]?.stringValue }
        }.first
        #expect(cyKinds == ["guessed"])
        let cyRoom = cyBack.history.compactMap { event -> [String: JSONValue]? in
            guard case .json(.object(let o)) = event, o["t"]?.stringValue == "room" else { return nil }
            return o
        }.first
        #expect(cyRoom?["myRating"]?.stringValue == "dislike")
        // Ada resumes without an avatar in her hello: the stored one comes back.
        let adaBack = TestClient.connect(port: server.port)
        let welcome = try await adaBack.hello("Ada", token: ada.token)
        #expect(welcome["avatar"]?.objectValue?["color"]?.intValue == 3)
        let adaHistory = try await adaBack.next("chatHistory")["lines"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
        #expect(adaHistory == ["\(word) is easy", "a cat?"])
        // Cy changes its mind during turnEnd: the stored turn follows.
        adaBack.send(#"{"t":"skip"}"#)
        let end = try await cyBack.next("turnEnd")
        #expect(end["ratings"]?.objectValue?["dislikes"]?.intValue == 1)
        cyBack.send(#"{"t":"rate","value":"like"}"#)
        try await adaBack.next("ratings") { $0["likes"]?.intValue == 1 }
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)

        let queue = try DatabaseQueue(path: db)
        let row = try await queue.read { db in try Row.fetchOne(db, sql: "SELECT word, likes, dislikes FROM turn ORDER BY id DESC LIMIT 1") }
        #expect(row?["word"] as String? == word)
        #expect(row?["likes"] as Int? == 1)
        #expect(row?["dislikes"] as Int? == 0)
        let adaID = ada.playerID
        let avatar = try await queue.read { db in try String.fetchOne(db, sql: "SELECT avatar FROM player WHERE id = ?", arguments: [adaID]) }
        #expect(avatar?.contains("\"color\":3") == true)
    }
}
