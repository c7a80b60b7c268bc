import Bots
import DrawProtocol
import Rooms
import Testing
@testable import DrawServer

/// `drawserver bot`: bots as outside clients, each a brain driven through a DrawClient
/// connection, play a whole game in a room of a real server.
@Suite struct OutsideBotTests {
    @Test func threeOutsideBotsPlayAGameThroughDrawClient() async throws {
        try await withServer(BotGameTests.quick) { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            // Words the shipped sample drawings cover, so every drawer has one to draw.
            let code = try await seat(ada, [], settings: #"{"rounds":1,"customWords":["sun","house","tree","star","fish","moon"],"customOnly":true}"#)
            let plan = OutsideBot.Plan(url: "ws://127.0.0.1:\(port)/ws", room: code, games: 1, timeout: .seconds(90))
            let playing = Task {
                await withTaskGroup(of: OutsideBot.Outcome.self) { group in
                    for index in 0..<3 {
                        let brain = BotBrain(level: .hard, seed: 40 + UInt64(index), library: BotLibrary.samples)
                        group.addTask { await OutsideBot(name: "Bot \(index + 1)", brain: brain, plan: plan).play() }
                    }
                    var all: [OutsideBot.Outcome] = []
                    for await outcome in group { all.append(outcome) }
                    return all
                }
            }
            for _ in 0..<3 { try await ada.next("joined") }
            // With only the bots seated and ready, the game starts at once.
            ada.send(#"{"t":"spectate","on":true}"#)
            let outcomes = await playing.value
            #expect(outcomes.count == 3)
            for outcome in outcomes {
                #expect(outcome.failure == nil, "\(outcome.summary)")
                #expect(!outcome.timedOut, "\(outcome.summary)")
                #expect(outcome.gamesEnded == 1, "\(outcome.summary)")
                #expect(outcome.turns == 3, "one round of three drawers: \(outcome.summary)")
                #expect(outcome.turnsDrawn == 1, "\(outcome.summary)")
            }
            #expect(outcomes.reduce(0) { $0 + $1.framesSent } > 0, "the bots drew")
        }
    }
}
