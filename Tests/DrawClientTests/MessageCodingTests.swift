@testable import DrawClient
import Testing

@Suite struct MessageCodingTests {
    @Test func commandsEncodeAsTheProtocolSpellsThem() {
        #expect(ClientCommand.hello(name: "Ada").text == #"{"t":"hello","name":"Ada"}"#)
        #expect(ClientCommand.hello(name: "Ada", token: "tok").text == #"{"t":"hello","name":"Ada","token":"tok"}"#)
        #expect(ClientCommand.chat("say \"hi\"\n").text == #"{"t":"chat","text":"say \"hi\"\n"}"#)
        #expect(ClientCommand.create(name: "R", isPublic: true, settings: GameSettings(rounds: 2, language: "de")).text
            == #"{"t":"create","name":"R","public":true,"settings":{"language":"de","rounds":2}}"#)
        #expect(ClientCommand.join(code: "K7QX2M").text == #"{"t":"join","code":"K7QX2M"}"#)
        #expect(ClientCommand.ready().text == #"{"t":"ready","ready":true}"#)
        #expect(ClientCommand.choose(index: 1).text == #"{"t":"choose","index":1}"#)
        #expect(ClientCommand.kick(playerID: "p1").text == #"{"t":"kick","playerId":"p1"}"#)
        #expect(ClientCommand.rate(.none).text == #"{"t":"rate","value":"none"}"#)
        #expect(ClientCommand.raw(["t": "addBot", "level": "easy"]).text == #"{"t":"addBot","level":"easy"}"#)
        #expect(ClientCommand.addBot(level: "hard").text == #"{"t":"addBot","level":"hard"}"#)
        #expect(ClientCommand.removeBot(playerID: "b1").text == #"{"t":"removeBot","playerId":"b1"}"#)
    }

    @Test func eventsDecodeTheirFields() {
        #expect(ServerEvent(text: #"{"t":"welcome","playerId":"p","token":"k","resumed":true,"name":"Ada"}"#)
            == .welcome(WelcomeInfo(playerID: "p", token: "k", resumed: true, name: "Ada", avatar: nil)))
        #expect(ServerEvent(text: #"{"t":"turn","drawer":"d","round":1,"mask":"_ _","remainingMs":80000}"#)
            == .turn(drawer: "d", round: 1, mask: "_ _", remainingMs: 80000, word: nil))
        #expect(ServerEvent(text: #"{"t":"ready","playerId":"p","ready":false}"#) == .ready(playerID: "p", ready: false))
        #expect(ServerEvent(text: #"{"t":"error","code":"not_host","message":"no","ref":"start"}"#)
            == .error(ServerError(code: "not_host", message: "no", ref: "start", retryAfterMs: nil)))
        guard case .room(let room) = ServerEvent(text: #"""
            {"t":"room","code":"ABCDEF","name":"R","public":false,"host":"p","settings":{"rounds":3},"phase":"lobby",
             "round":0,"rounds":3,"drawer":null,"mask":null,"remainingMs":0,
             "players":[{"id":"p","name":"Ada","score":5,"ready":true,"connected":true,"guessed":false,"spectator":false,"bot":true}],
             "canvas":{"w":800,"h":600}}
            """#) else {
            Issue.record("room did not decode")
            return
        }
        #expect(room.code == "ABCDEF" && room.drawer == nil && room.settings.rounds == 3)
        #expect(room.players.map(\.name) == ["Ada"] && room.players.first?.score == 5)
        // Fields this library does not model stay readable.
        #expect(room.players.first?.fields["bot"] == .bool(true))
        #expect(room.players.first?.isBot == true)
    }

    @Test func unknownOrIncompleteMessagesDecodeAsUnknownNeverFail() {
        let added = ServerEvent(text: #"{"t":"botJoined","level":"hard"}"#)
        #expect(added == .unknown(type: "botJoined", raw: ["t": "botJoined", "level": "hard"]))
        #expect(added?.type == "botJoined")
        // A known type missing a field it needs.
        #expect(ServerEvent(text: #"{"t":"turn","round":1}"#) == .unknown(type: "turn", raw: ["t": "turn", "round": 1]))
        #expect(ServerEvent(text: "not json") == nil)
        #expect(ServerEvent(text: #"{"no":"type"}"#) == nil)
    }

    @Test func drawingEncoderKeepsTheOpenStrokeAcrossFramesAndTheDecoderReadsItBack() throws {
        var encoder = DrawingEncoder()
        let first = encoder.encode([.begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 20, y: 15)])])
        let second = encoder.encode([.points([Point(x: 25, y: 30)]), .end])
        var decoder = DrawingDecoder(size: CanvasSize(width: 800, height: 600))
        #expect(try decoder.decode(first) == [.begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 20, y: 15)])])
        #expect(try decoder.decode(second) == [.points([Point(x: 25, y: 30)]), .end])
        // END with no open stroke is invalid, as on the server.
        #expect(throws: FrameError.self) { try decoder.decode([0x03]) }
    }
}

/// Issue 39's additions decode (docs/PROTOCOL.md section 11).
@Suite struct Issue39DecodingTests {
    @Test func noticesGuessedWordLeftReasonAndGameDrawingsDecode() {
        #expect(ServerEvent(text: #"{"t":"guessed","playerId":"p","points":90,"word":"Sonne"}"#) == .guessed(playerID: "p", points: 90, word: "Sonne"))
        #expect(ServerEvent(text: #"{"t":"guessed","playerId":"p","points":90}"#) == .guessed(playerID: "p", points: 90, word: nil))
        #expect(ServerEvent(text: #"{"t":"left","playerId":"p","reason":"votekicked"}"#) == .left(playerID: "p", reason: "votekicked"))
        #expect(ServerEvent(text: #"{"t":"left","playerId":"p"}"#) == .left(playerID: "p", reason: "left"))
        #expect(ServerEvent(text: #"{"t":"notice","code":"bot_passed","playerId":"b","name":"Pixel"}"#)
            == .notice(NoticeInfo(code: "bot_passed", playerID: "b", name: "Pixel", retryMs: nil, fields: [:])))
        #expect(ServerEvent(text: #"{"t":"notice","code":"slow_down","retryMs":600}"#)
            == .notice(NoticeInfo(code: "slow_down", playerID: nil, name: nil, retryMs: 600, fields: [:])))
        guard case .notice(let adjusted)? = ServerEvent(text: #"{"t":"notice","code":"settings_adjusted","fields":{"rounds":10}}"#) else {
            Issue.record("settings_adjusted did not decode")
            return
        }
        #expect(adjusted.fields["rounds"]?.intValue == 10)
        #expect(ServerEvent(text: #"{"t":"gameDrawings","drawings":[{"id":"X","png":"/d/X.png","timelapse":"/d/X.apng","word":"sun","drawer":"p","name":"Ada","round":2}]}"#)
            == .gameDrawings([GameDrawingInfo(links: DrawingLinks(id: "X", png: "/d/X.png", timelapse: "/d/X.apng"), word: "sun", drawer: "p", name: "Ada", round: 2)]))
    }

    @Test func historyKindsRoomAndRoomListAdditionsDecode() {
        guard case .chatHistory(let lines)? = ServerEvent(text: #"""
            {"t":"chatHistory","lines":[{"from":"p","name":"Ada","text":"hi"},{"kind":"guessed","playerId":"q","name":"Bob"},
             {"kind":"close","text":"sonn"},{"kind":"reveal","word":"Sonne","reason":"time"},{"kind":"passed","playerId":"b","name":"Pixel"}]}
            """#) else {
            Issue.record("chatHistory did not decode")
            return
        }
        #expect(lines.map(\.kind) == [nil, "guessed", "close", "reveal", "passed"])
        #expect(lines[1].from == "q" && lines[2].text == "sonn" && lines[3].word == "Sonne" && lines[3].reason == "time")
        guard case .room(let room)? = ServerEvent(text: #"{"t":"room","code":"ABCDEF","phase":"lobby","nextGameMs":15000,"solvedWord":"Sonne"}"#) else {
            Issue.record("room did not decode")
            return
        }
        #expect(room.nextGameMs == 15_000 && room.solvedWord == "Sonne")
        guard case .rooms(let list)? = ServerEvent(text: #"{"t":"rooms","rooms":[{"code":"ABCDEF","players":3,"bots":1,"language":"de","round":2,"rounds":4}]}"#) else {
            Issue.record("rooms did not decode")
            return
        }
        #expect(list.first?.bots == 1 && list.first?.language == "de" && list.first?.round == 2 && list.first?.rounds == 4)
    }
}
