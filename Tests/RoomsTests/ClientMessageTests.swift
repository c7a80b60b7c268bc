import DrawProtocol
import Testing
@testable import Rooms

@Suite("Client message decoding")
struct ClientMessageTests {
    func decode(_ text: String) -> Result<ClientMessage, ProtocolError> {
        ClientMessage.decode(Array(text.utf8))
    }

    @Test func validMessages() throws {
        #expect(try decode(#"{"t":"hello","name":"Ada"}"#).get() == .hello(name: "Ada", token: nil))
        #expect(try decode(#"{"t":"hello","name":"Ada","token":"x","extra":[1,2]}"#).get() == .hello(name: "Ada", token: "x"))
        #expect(try decode(#"{"t":"join","code":"k7qx2m"}"#).get() == .join(code: "k7qx2m"))
        #expect(try decode(#"{"t":"choose","index":2}"#).get() == .choose(index: 2))
        #expect(try decode(#"{"t":"choose","index":2.0}"#).get() == .choose(index: 2))
        #expect(try decode(#"{"t":"ready","ready":false}"#).get() == .ready(false))
        #expect(try decode(#"{"t":"spectate","on":true}"#).get() == .spectate(true))
        let create = try decode(#"{"t":"create","name":"R","public":true,"settings":{"rounds":4,"customWords":["a","b"],"customOnly":true}}"#).get()
        #expect(create == .create(name: "R", isPublic: true, settings: SettingsPatch(rounds: 4, customWords: ["a", "b"], customOnly: true)))
    }

    @Test func errorsNameTheProblem() {
        func error(_ text: String) -> ProtocolError? {
            if case .failure(let e) = decode(text) { return e }
            return nil
        }
        #expect(error("not json")?.code == .badJSON)
        #expect(error("not json")?.ref == "")
        #expect(error("[1,2]")?.code == .badJSON)
        #expect(error(#"{"name":"x"}"#)?.code == .badMessage)
        #expect(error(#"{"t":"dance"}"#)?.code == .badMessage)
        #expect(error(#"{"t":"dance"}"#)?.ref == "dance")
        #expect(error(#"{"t":"hello"}"#)?.message.contains("name") == true)
        #expect(error(#"{"t":"hello","name":5}"#)?.code == .badMessage)
        #expect(error(#"{"t":"choose","index":1.5}"#)?.code == .badMessage)
        #expect(error(#"{"t":"choose","index":"1"}"#)?.ref == "choose")
        #expect(error(#"{"t":"settings","settings":{"rounds":"many"}}"#)?.code == .badMessage)
        #expect(error(#"{"t":"create","settings":{"customWords":[1]}}"#)?.code == .badMessage)
    }

    @Test func typeOfAFrameForRefusingItUndecoded() {
        #expect(ClientMessage.type(of: Array(#"{"t":"chat","text":"hi"}"#.utf8)) == "chat")
        #expect(ClientMessage.type(of: Array(#"{"t":5}"#.utf8)) == "")
        #expect(ClientMessage.type(of: Array("[1]".utf8)) == "")
        #expect(ClientMessage.type(of: Array("{".utf8)) == "")
    }

    @Test func moreThan500CustomWordsAreClampedNotRefused() throws {
        let words = (0..<600).map { "word\($0)" }
        let json = #"{"t":"create","settings":{"customWords":["# + words.map { "\"\($0)\"" }.joined(separator: ",") + "]}}"
        guard case .create(_, _, let patch) = try decode(json).get() else {
            Issue.record("not a create")
            return
        }
        let settings = RoomSettings().applying(patch)
        #expect(settings.customWords == Array(words.prefix(500)), "the first 500 are kept, as the server echoes")
    }

    @Test func serverMessagesAreValidJSON() throws {
        let messages: [ServerMessage] = [
            .welcome(playerID: PlayerID("p1"), token: "t", resumed: false, name: "A\"da\n"),
            .error(ProtocolError(.badOps, "bad \\ frame", ref: "binary")),
            .turnEnd(word: "cat", reason: .allGuessed, scores: [PlayerID("a"): 10, PlayerID("b"): 0]),
            .chat(from: PlayerID("a"), name: "<img src=x>", text: "\u{1}ctl"),
            .gameEnd(ranking: [RankEntry(id: PlayerID("a"), name: "A", score: 3, place: 1)]),
        ]
        for message in messages {
            let value = try #require(JSONValue.parse(message.jsonBytes()))
            guard case .object(let object) = value else {
                Issue.record("not an object")
                continue
            }
            #expect(object["t"] == .string(message.type))
        }
        #expect(ServerMessage.chat(from: PlayerID("a"), name: "n", text: "\u{1}").jsonString.contains("\\u0001"))
    }
}
