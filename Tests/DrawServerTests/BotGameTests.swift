import Bots
import Canvas
import DrawProtocol
import Logging
import NIOCore
import Rooms
import Synchronization
import NIOEmbedded
import Testing
@testable import DrawServer

/// Bots seated through the real server: their brains get the bytes a socket would and
/// play through the room like anyone.
@Suite struct BotGameTests {
    /// Short turns, so a whole game of bots takes few steps of game time.
    static func quick(_ c: inout ServerConfiguration) {
        c.room.drawMs = 4_000
        c.room.chooseMs = 3_000
        c.room.turnEndMs = 200
        c.room.gameEndMs = 200
    }

    /// Ada hosts, watches as a spectator, and seats four bots; returns what she saw of the
    /// game: per turn the drawer, the word, who guessed and how it ended, then the ranking.
    /// The game runs on `clock`'s virtual time: whenever Ada has read everything sent so far,
    /// game time moves on by a step. Bots act at their game time whatever the step.
    static func watchFourBots(port: Int, clock: ManualServerClock) async throws -> (turns: [String], ranking: [[String: JSONValue]], frames: Int, transcript: [String]) {
        let ada = TestClient.connect(port: port)
        try await ada.hello("Ada")
        try await seat(ada, [])
        for level in ["easy", "normal", "hard", "hard"] {
            ada.send(#"{"t":"addBot","level":"\#(level)"}"#)
            try await ada.next("joined")
        }
        // Spectating last: with only ready bots seated, the game starts at once.
        ada.send(#"{"t":"spectate","on":true}"#)
        var turns: [String] = []
        var guessers: [String] = []
        var drawer = ""
        var frames = 0
        // Everything Ada received once the game started, frames included, in order.
        var transcript: [String] = []
        var binary: [UInt8] = []
        // A game of four short turns takes well under two minutes of game time.
        while clock.now < .seconds(120) {
            guard let event = await ada.nextEvent(within: 0.02) else {
                clock.advance(by: Self.step)
                continue
            }
            switch event {
            case .binary(let bytes):
                frames += 1
                // The server may merge frames queued back to back (the protocol allows it,
                // and a busy machine makes it happen): compare the bytes between messages.
                binary += bytes
            case .json(let value):
                if !binary.isEmpty { transcript.append("binary \(binary)") }
                binary = []
                transcript.append(Self.canonical(value))
            case .closed: break
            }
            guard case .json(.object(let m)) = event, let type = m["t"]?.stringValue else { continue }
            switch type {
            case "turn": drawer = m["drawer"]?.stringValue ?? ""
            case "guessed": guessers.append(m["playerId"]?.stringValue ?? "")
            case "turnEnd":
                turns.append("\(drawer) drew \(m["word"]?.stringValue ?? "?") (\(m["reason"]?.stringValue ?? "?")), guessed: \(guessers.joined(separator: ","))")
                guessers = []
            case "gameEnd":
                return (turns, m["ranking"]?.arrayValue?.compactMap(\.objectValue) ?? [], frames, transcript)
            default: break
            }
        }
        Issue.record("no gameEnd after \(clock.now) of game time; turns so far: \(turns)")
        return (turns, [], frames, transcript)
    }

    /// How far game time moves each time the spectator has read everything.
    static let step = Duration.milliseconds(250)

    /// JSON with its keys sorted, to compare messages across runs.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .object(let o): "{" + o.keys.sorted().map { "\($0):\(canonical(o[$0] ?? .null))" }.joined(separator: ",") + "}"
        case .array(let a): "[" + a.map(canonical).joined(separator: ",") + "]"
        case .string(let t): "\"\(t)\""
        case .number(let n): "\(n)"
        case .bool(let b): "\(b)"
        case .null: "null"
        }
    }

    @Test func aGameOfFourBotsCompletesThroughTheServer() async throws {
        let clock = ManualServerClock()
        try await withServer(Self.quick, clock: clock) { port in
            let (turns, ranking, frames, _) = try await Self.watchFourBots(port: port, clock: clock)
            #expect(turns.count == 4, "\(turns)")
            #expect(!turns.contains { $0.contains("(skipped)") || $0.contains("(drawerLeft)") }, "\(turns)")
            #expect(ranking.count == 4)
            #expect(ranking.allSatisfy { $0["bot"] == .bool(true) })
            #expect(frames > 0, "the spectator saw the bots draw")
        }
    }

    @Test func theSameSeedPlaysTheSameBotGame() async throws {
        // Per run: the turns, then everything the spectator received during the game.
        let collected = Mutex<[(turns: [String], transcript: [String])]>([])
        for _ in 0..<2 {
            let clock = ManualServerClock()
            try await withServer({ Self.quick(&$0); $0.seed = 99 }, clock: clock) { port in
                let (turns, _, _, transcript) = try await Self.watchFourBots(port: port, clock: clock)
                collected.withLock { $0.append((turns, transcript)) }
            }
        }
        let runs = collected.withLock { $0 }
        try #require(runs.count == 2)
        #expect(runs[0].turns.count == 4)
        #expect(runs[0].turns == runs[1].turns)
        #expect(runs[0].transcript.count == runs[1].transcript.count)
        let firstDifference = zip(runs[0].transcript, runs[1].transcript).first { $0 != $1 }
        #expect(firstDifference == nil, "\(String(describing: firstDifference))")
    }

    /// Issue 39's reproduction through the server and its bot library: custom words only,
    /// two bots; once the host drew "Schneemann" (the only one of the three the bots have a
    /// drawing for), both bots pass and it is never offered again while two are unused.
    @Test func botsWithNothingFreshToDrawPassAndTheHostIsToldEachTime() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await seat(ada, [], settings: #"{"rounds":2,"language":"de","customWords":["Schneemann","Kaffeetasse","Regenschirm"],"customOnly":true}"#)
            for _ in 0..<2 {
                ada.send(#"{"t":"addBot","level":"normal"}"#)
                try await ada.next("joined")
            }
            ada.send(#"{"t":"ready","ready":true}"#)
            let offered = try await ada.next("choose")["words"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let index = try #require(offered.firstIndex(of: "Schneemann"))
            ada.send(#"{"t":"choose","index":\#(index)}"#)
            try await ada.next("turn")
            ada.send(#"{"t":"skip"}"#)
            let first = try await ada.next("notice")
            let second = try await ada.next("notice")
            #expect([first, second].map { $0["code"]?.stringValue } == ["bot_passed", "bot_passed"])
            #expect(Set([first, second].compactMap { $0["playerId"]?.stringValue }).count == 2)
            let next = try await ada.next("choose")["words"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(Set(next) == ["Kaffeetasse", "Regenschirm"])
        }
    }

    @Test func onlyTheHostAddsBotsAndOneSeatStaysForAPerson() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port), bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob], settings: #"{"maxPlayers":4}"#)
            bob.send(#"{"t":"addBot","level":"easy"}"#)
            #expect(try await bob.next("error")["code"]?.stringValue == "not_host")
            ada.send(#"{"t":"addBot","level":"easy"}"#)
            let joined = try await bob.next("joined")
            let bot = joined["player"]?.objectValue
            #expect(bot?["bot"] == .bool(true) && bot?["ready"] == .bool(true))
            ada.send(#"{"t":"addBot","level":"hard"}"#)
            try await bob.next("joined")
            ada.send(#"{"t":"addBot","level":"hard"}"#)
            #expect(try await ada.next("error")["code"]?.stringValue == "room_full")
            ada.send(#"{"t":"removeBot","playerId":"\#(bot?["id"]?.stringValue ?? "")"}"#)
            #expect(try await bob.next("left")["playerId"] == bot?["id"])
        }
    }

    @Test func aLikedDrawingOfAPersonBecomesOneBotsDrawFirst() throws {
        let server = GameServer(configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"))
        let (a, b) = (Outbox(limit: 1 << 20, eventLoop: EmbeddedEventLoop(), hardClose: {}), Outbox(limit: 1 << 20, eventLoop: EmbeddedEventLoop(), hardClose: {}))
        let ada = try server.hello(name: "Ada", token: nil, connection: server.newConnectionID(), outbox: a).get()
        let bob = try server.hello(name: "Bob", token: nil, connection: server.newConnectionID(), outbox: b).get()
        let room = try server.makeRoom(for: ada, name: "r", isPublic: false, settings: RoomSettings()).get()
        #expect(room.join(ada, name: "Ada", outbox: a) == nil)
        #expect(room.join(bob, name: "Bob", outbox: b) == nil)
        room.handle(.start, from: ada)
        room.handle(.choose(index: 0), from: ada)
        let word = try #require(room.strokeLog.word)
        let frame = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 300, y: 200))
        room.draw(ByteBuffer(bytes: frame), from: ada)
        room.handle(.skip, from: ada)
        #expect(server.botLibrary.drawings(of: word, language: "en").first?.frames.map(\.bytes) != [frame])
        room.handle(.rate(.like), from: bob)
        #expect(server.botLibrary.drawings(of: word, language: "en").first?.frames.map(\.bytes) == [frame])
        #expect(server.botLibrary.vocabulary.words(for: "en").contains(word))
    }
}
