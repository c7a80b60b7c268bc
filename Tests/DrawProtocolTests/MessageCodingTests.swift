import DrawProtocol
import Testing

/// The one protocol model reads back what it writes, both ways: what the server sends, a
/// client decodes to the same message; what a client sends, the server decodes to the same.
@Suite struct MessageCodingTests {
    static let ada = PlayerID("p1")
    static let bob = PlayerID("p2")
    static let code = RoomCode(parsing: "K7QX2M")!
    static let drawing = DrawingID(parsing: "ABCDEFGHIJKLMNOPQRSTUV")!
    static let avatar = Avatar(color: 3, eyes: 2, mouth: 1, accessory: 4)!

    static var room: RoomView {
        var settings = RoomSettings()
        settings.rounds = 4
        settings.language = "de"
        settings.customWords = ["Sonne", "Mond"]
        settings.customOnly = true
        settings.streamer = true
        return RoomView(
            code: code, name: "Ada's room", isPublic: true, host: ada, settings: settings, phase: .drawing,
            round: 2, rounds: 4, drawer: bob, mask: "_ _ _", word: nil, remainingMs: 41_000,
            players: [
                PlayerView(id: ada, name: "Ada", score: 120, ready: true, connected: true, guessed: true, spectator: false, avatar: avatar),
                PlayerView(id: bob, name: "Pixel", score: 90, ready: true, connected: false, guessed: false, spectator: false,
                           avatar: .standard(for: bob), bot: true),
            ],
            canvasWidth: 800, canvasHeight: 600, ratings: RatingCounts(likes: 2, dislikes: 1), showsMyRating: true,
            myRating: .like, showsCustomWords: true, solvedWord: "Sonne", nextGameMs: nil
        )
    }

    static let serverSamples: [ServerMessage] = [
        .welcome(playerID: ada, token: "secret", resumed: true, name: "Ada", avatar: avatar),
        .error({ var e = ProtocolError(.serverBusy, "try later", ref: "join"); e.retryAfterMs = 500; return e }()),
        .rooms([RoomSummary(code: code, name: "R", isPublic: true, players: 3, maxPlayers: 8, phase: .lobby, bots: 1,
                            language: "de", round: 0, rounds: 3)]),
        .room(room),
        .room({ var r = room; r.showsCustomWords = false; r.settings.customWords = []; r.customWordCount = 2
                r.showsMyRating = false; r.myRating = nil; r.ratings = nil; r.nextGameMs = 15_000; r.word = "Mond"; return r }()),
        .joined(PlayerView(id: bob, name: "Bob", score: 0, ready: false, connected: true, guessed: false, spectator: true, avatar: avatar)),
        .joined(PlayerView(id: bob, name: "TV", score: 0, ready: false, connected: true, guessed: false, spectator: true, avatar: avatar, watching: true)),
        .left(bob, reason: .votekicked),
        .ready(ada, false),
        .chat(from: ada, name: "Ada", text: "say \"hi\"\n"),
        .choosing(drawer: bob, remainingMs: 15_000),
        .choose(words: ["sun", "moon", "star"], remainingMs: 15_000),
        .turn(drawer: bob, round: 1, mask: "_ _ _", remainingMs: 80_000, word: "sun"),
        .turn(drawer: bob, round: 1, mask: "_ _ _", remainingMs: 80_000, word: nil),
        .hint(mask: "s _ _"),
        .close(text: "sum"),
        .guessed(ada, points: 90, word: "sun"),
        .turnEnd(word: "sun", reason: .allGuessed, scores: [ada: 90, bob: 45], ratings: RatingCounts(likes: 1, dislikes: 0), drawing: drawing),
        .turnEnd(word: "sun", reason: .drawerLeft, scores: [:]),
        .gameEnd(ranking: [
            RankEntry(id: ada, name: "Ada", score: 300, place: 1, avatar: avatar),
            RankEntry(id: bob, name: "Pixel", score: 300, place: 1, avatar: .standard(for: bob), bot: true),
        ]),
        .invited(from: ada, name: "Ada", code: code, avatar: avatar),
        .kicked(code: code),
        .closed(code: code),
        .canvas(width: 1024, height: 768),
        .votekick(target: bob, votes: 2, needed: 3),
        .ratings(RatingCounts(likes: 3, dislikes: 1)),
        .chatHistory([
            ChatLine(sequence: 0, from: ada, name: "Ada", text: "hi"),
            ChatLine(sequence: 0, from: bob, name: "Bob", text: "", kind: .guessed),
            ChatLine(sequence: 0, from: PlayerID(""), name: "", text: "sonn", kind: .close),
            ChatLine(sequence: 0, from: PlayerID(""), name: "", text: "", kind: .reveal, word: "Sonne", reason: .time),
            ChatLine(sequence: 0, from: bob, name: "Pixel", text: "", kind: .passed),
        ]),
        .gallery(listed: false),
        .reported(id: "r-17"),
        .notice(.botPassed(bob, name: "Pixel")),
        .notice(.slowDown(retryMs: 600)),
        .notice(.settingsAdjusted([AdjustedSetting(field: "language", value: .text("en")), AdjustedSetting(field: "rounds", value: .number(10))])),
        .gameDrawings([GameDrawing(id: drawing, word: "sun", drawer: bob, name: "Pixel", round: 2)]),
        .redirect(room: code, node: "n2", path: "/ws?node=n2"),
        .phoneStep(PhoneStep(step: 1, steps: 4, kind: .draw, remainingMs: 80_000, prompt: "a cat", drawing: nil, submitted: nil)),
        .phoneStep(PhoneStep(step: 2, steps: 4, kind: .describe, remainingMs: 40_000, prompt: nil, drawing: drawing, submitted: true)),
        .phoneProgress(step: 2, done: [bob, ada], remainingMs: 12_500),
        .phoneProgress(step: 0, done: []),
        .album([AlbumChain(owner: ada, entries: [
            AlbumEntry(kind: .text, by: ada, text: "a cat"),
            AlbumEntry(kind: .drawing, by: bob, drawing: drawing),
            AlbumEntry(kind: .drawing, by: ada),
        ])]),
        .albumReveal(chain: 0, entry: -1),
    ]

    @Test func everyServerMessageDecodesToItself() {
        for message in Self.serverSamples {
            #expect(ServerMessage(text: message.jsonBytes()) == message, "\(message.jsonString)")
        }
    }

    @Test func theSamplesCoverEveryServerMessage() {
        let types: Set<String> = [
            "welcome", "error", "rooms", "room", "joined", "left", "ready", "chat", "choosing", "choose", "turn", "hint",
            "close", "guessed", "turnEnd", "gameEnd", "invited", "kicked", "closed", "canvas", "votekick", "ratings",
            "chatHistory", "gallery", "reported", "notice", "gameDrawings", "redirect",
            "phoneStep", "phoneProgress", "album", "albumReveal",
        ]
        #expect(Set(Self.serverSamples.map(\.type)) == types)
    }

    @Test func serverMessagesAreReadLeniently() {
        // Unknown fields are ignored; optional ones take their defaults.
        #expect(ServerMessage(text: Array(#"{"t":"ready","playerId":"p","extra":[1,2]}"#.utf8)) == .ready(PlayerID("p"), true))
        #expect(ServerMessage(text: Array(#"{"t":"left","playerId":"p"}"#.utf8)) == .left(PlayerID("p"), reason: .left))
        // A reason this version does not know still means the member left.
        #expect(ServerMessage(text: Array(#"{"t":"left","playerId":"p","reason":"teleported"}"#.utf8)) == .left(PlayerID("p"), reason: .left))
        guard case .room(let room)? = ServerMessage(text: Array(#"{"t":"room","code":"ABCDEF","phase":"lobby"}"#.utf8)) else {
            Issue.record("a sparse room did not decode")
            return
        }
        #expect(room.settings == RoomSettings() && room.players.isEmpty && room.canvasWidth == 800)
        // A player without an avatar is shown the standard one for its id.
        guard case .joined(let player)? = ServerMessage(text: Array(#"{"t":"joined","player":{"id":"q","name":"Q"}}"#.utf8)) else {
            Issue.record("joined did not decode")
            return
        }
        #expect(player.avatar == .standard(for: PlayerID("q")) && player.connected)
    }

    @Test func phoneProgressSaysTheStepsTimeLeftOnlyWhenItIsGiven() {
        // issue 36: `remainingMs` is an addition; a progress without it reads as before.
        #expect(ServerMessage.phoneProgress(step: 1, done: [Self.ada], remainingMs: 5_000).jsonString
            == #"{"t":"phoneProgress","step":1,"done":["p1"],"remainingMs":5000}"#)
        #expect(ServerMessage.phoneProgress(step: 1, done: []).jsonString == #"{"t":"phoneProgress","step":1,"done":[]}"#)
        #expect(ServerMessage(text: Array(#"{"t":"phoneProgress","step":3,"done":["p2"]}"#.utf8))
            == .phoneProgress(step: 3, done: [Self.bob], remainingMs: nil))
        #expect(ServerMessage(text: Array(#"{"t":"phoneProgress","step":3,"done":[],"remainingMs":800}"#.utf8))
            == .phoneProgress(step: 3, done: [], remainingMs: 800))
    }

    @Test func whatCannotBeModelledIsNilNeverACrash() {
        for text in [
            "not json", "[]", #"{"no":"type"}"#, #"{"t":"botJoined","level":"hard"}"#, #"{"t":"turn","round":1}"#,
            #"{"t":"error","code":"from_the_future"}"#, #"{"t":"room"}"#, #"{"t":"canvas","w":"wide","h":1}"#,
            #"{"t":"notice","code":"new_kind"}"#,
        ] {
            #expect(ServerMessage(text: Array(text.utf8)) == nil, "\(text)")
        }
    }

    static let clientSamples: [ClientMessage] = [
        .hello(name: "Ada", token: nil),
        .hello(name: "Ada", token: "tok", avatar: avatar),
        .rooms, .quickplay, .leave, .start, .skip,
        .create(name: "R", isPublic: true, settings: SettingsPatch(rounds: 2, language: "de", customWords: ["a b", "c"], customOnly: true, streamer: true)),
        .create(name: nil, isPublic: false, settings: SettingsPatch()),
        .join(code: "k7qx2m"),
        .join(code: "k7qx2m", watch: true),
        .invite(playerID: bob), .kick(playerID: bob), .votekick(playerID: bob), .removeBot(playerID: bob),
        .settings(SettingsPatch(drawTimeSec: 60, maxPlayers: 12, wordChoices: 4, hints: 0)),
        .ready(false), .spectate(true),
        .chat("say \"hi\"\n"), .guess("Sonne"),
        .choose(index: 2),
        .rate(.like), .rate(nil),
        .addBot(level: .hard),
        .gallery(listed: true),
        .report(ReportRequest(target: .drawing(drawing), reason: .revealsWord)),
        .report(ReportRequest(target: .drawing(nil), reason: .spam)),
        .report(ReportRequest(target: .chat(from: bob, text: "rude"), reason: .offensive)),
    ]

    @Test func everyClientMessageDecodesToItself() {
        for message in Self.clientSamples {
            #expect(ClientMessage.decode(message.jsonBytes()) == .success(message), "\(message.jsonString)")
        }
        let covered = Set(Self.clientSamples.map(\.type))
        #expect(covered.count == 22, "every ClientMessage case has a sample: \(covered.sorted())")
    }

    @Test func clientMessagesAreSpelledAsTheProtocolSays() {
        #expect(ClientMessage.hello(name: "Ada", token: nil).jsonString == #"{"t":"hello","name":"Ada"}"#)
        #expect(ClientMessage.hello(name: "Ada", token: "tok").jsonString == #"{"t":"hello","name":"Ada","token":"tok"}"#)
        #expect(ClientMessage.chat("say \"hi\"\n").jsonString == #"{"t":"chat","text":"say \"hi\"\n"}"#)
        #expect(ClientMessage.create(name: "R", isPublic: true, settings: SettingsPatch(rounds: 2, language: "de")).jsonString
            == #"{"t":"create","name":"R","public":true,"settings":{"rounds":2,"language":"de"}}"#)
        #expect(ClientMessage.join(code: "K7QX2M").jsonString == #"{"t":"join","code":"K7QX2M"}"#)
        #expect(ClientMessage.join(code: "K7QX2M", watch: true).jsonString == #"{"t":"join","code":"K7QX2M","watch":true}"#)
        #expect(ClientMessage.ready(true).jsonString == #"{"t":"ready","ready":true}"#)
        #expect(ClientMessage.choose(index: 1).jsonString == #"{"t":"choose","index":1}"#)
        #expect(ClientMessage.kick(playerID: PlayerID("p1")).jsonString == #"{"t":"kick","playerId":"p1"}"#)
        #expect(ClientMessage.rate(nil).jsonString == #"{"t":"rate","value":"none"}"#)
        #expect(ClientMessage.addBot(level: .hard).jsonString == #"{"t":"addBot","level":"hard"}"#)
        #expect(ClientMessage.removeBot(playerID: PlayerID("b1")).jsonString == #"{"t":"removeBot","playerId":"b1"}"#)
    }

    @Test func closeCodesKeepTheirNumbers() {
        #expect(CloseCode.serviceRestart.rawValue == 1012)
        #expect(CloseCode.replaced.rawValue == 4001 && CloseCode.noHello.rawValue == 4003 && CloseCode.tooSlowToRead.rawValue == 4008)
    }
}
