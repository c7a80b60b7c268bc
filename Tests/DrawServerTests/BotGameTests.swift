import Rooms
import Synchronization
import Testing
@testable import DrawServer

/// Bots seated through the real server: their brains get the bytes a socket would and
/// play through the room like anyone.
@Suite struct BotGameTests {
    /// Short turns so a whole game of bots takes seconds.
    static func quick(_ c: inout ServerConfiguration) {
        c.room.drawMs = 4_000
        c.room.chooseMs = 3_000
        c.room.turnEndMs = 200
        c.room.gameEndMs = 200
    }

    /// Ada hosts, watches as a spectator, and seats four bots; returns what she saw of the
    /// game: per turn the drawer, the word, who guessed and how it ended, then the ranking.
    static func watchFourBots(port: Int) async throws -> (turns: [String], ranking: [[String: JSONValue]], frames: Int) {
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
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            guard let event = await ada.nextEvent(within: 10) else { break }
            if case .binary = event { frames += 1 }
            guard case .json(.object(let m)) = event, let type = m["t"]?.stringValue else { continue }
            switch type {
            case "turn": drawer = m["drawer"]?.stringValue ?? ""
            case "guessed": guessers.append(m["playerId"]?.stringValue ?? "")
            case "turnEnd":
                turns.append("\(drawer) drew \(m["word"]?.stringValue ?? "?") (\(m["reason"]?.stringValue ?? "?")), guessed: \(guessers.joined(separator: ","))")
                guessers = []
            case "gameEnd":
                return (turns, m["ranking"]?.arrayValue?.compactMap(\.objectValue) ?? [], frames)
            default: break
            }
        }
        Issue.record("no gameEnd; turns so far: \(turns)")
        return (turns, [], frames)
    }

    @Test func aGameOfFourBotsCompletesThroughTheServer() async throws {
        try await withServer(Self.quick) { port in
            let (turns, ranking, frames) = try await Self.watchFourBots(port: port)
            #expect(turns.count == 4, "\(turns)")
            #expect(!turns.contains { $0.contains("(skipped)") || $0.contains("(drawerLeft)") }, "\(turns)")
            #expect(ranking.count == 4)
            #expect(ranking.allSatisfy { $0["bot"] == .bool(true) })
            #expect(frames > 0, "the spectator saw the bots draw")
        }
    }

    @Test func theSameSeedPlaysTheSameBotGame() async throws {
        let collected = Mutex<[[String]]>([])
        for _ in 0..<2 {
            try await withServer({ Self.quick(&$0); $0.seed = 99 }) { port in
                let (turns, _, _) = try await Self.watchFourBots(port: port)
                collected.withLock { $0.append(turns) }
            }
        }
        let runs = collected.withLock { $0 }
        #expect(runs[0].count == 4)
        #expect(runs[0] == runs[1])
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
}
