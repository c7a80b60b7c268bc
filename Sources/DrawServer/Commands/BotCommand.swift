import ArgumentParser
import Bots
import DrawClient
import DrawProtocol
import Foundation
import Rooms

/// `drawserver bot`: bots that play in a room of a running server as outside clients,
/// each a `BotBrain` driven through a `DrawClient` connection (the same brain the server
/// seats with `addBot`). Also a load source made of whole games.
package struct BotCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bot",
        abstract: "Play in a room of a running server as bots (through the DrawClient library).",
        discussion: """
            Each bot connects to --url, says hello, joins --room and plays: ready in the lobby,
            choosing and drawing its words from the sample drawings shipped with the server,
            guessing from the mask and hints, chatting a little. An outside bot draws only the
            words of those samples (a drawer offered none of them skips its turn), so a room of
            such bots plays best with custom words from them. It stops after --games games
            have ended in the room, or after --timeout seconds. Exit codes: 0 when every bot
            played its games; 3 when a bot could not connect or join; 4 on timeout.
            """
    )

    @Option(help: "The server's WebSocket URL, e.g. ws://127.0.0.1:8080/ws.")
    var url: String

    @Option(help: "The code of the room to join.")
    var room: String

    @Option(help: "How many bots (1 to 64).")
    var count = 1

    @Option(help: "easy, normal or hard.")
    var level = BotLevel.normal.rawValue

    @Option(help: "Seed of the bots' choices (random when left out); bot i uses seed + i.")
    var seed: UInt64?

    @Option(help: "Stop after this many games have ended in the room.")
    var games = 1

    @Option(help: "Give up after this many seconds.")
    var timeout: Double = 900

    @Option(help: "Name prefix; bots are named PREFIX 1, PREFIX 2, ...")
    var name = "Bot"

    enum ExitStatus {
        static let connectFailed: Int32 = 3
        static let timedOut: Int32 = 4
    }

    package func validate() throws {
        guard (1...64).contains(count) else { throw ValidationError("--count must be 1 to 64") }
        guard BotLevel(rawValue: level) != nil else { throw ValidationError("--level must be easy, normal or hard") }
        guard RoomCode(parsing: room) != nil else { throw ValidationError("--room is not a room code: \(room)") }
        guard games >= 1 else { throw ValidationError("--games must be at least 1") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard url.hasPrefix("ws://") || url.hasPrefix("wss://") else { throw ValidationError("--url must start with ws:// or wss://") }
    }

    package func run() async throws {
        let level = BotLevel(rawValue: level) ?? .normal
        let base = seed ?? UInt64.random(in: 0...UInt64.max)
        let plan = OutsideBot.Plan(url: url, room: room, games: games, timeout: .milliseconds(Int64(timeout * 1000)))
        let library = BotLibrary.samples
        let outcomes = await withTaskGroup(of: OutsideBot.Outcome.self) { group in
            for index in 0..<count {
                let brain = BotBrain(level: level, seed: base &+ UInt64(index), library: library)
                let bot = OutsideBot(name: "\(name) \(index + 1)", brain: brain, plan: plan)
                group.addTask { await bot.play() }
            }
            var all: [OutsideBot.Outcome] = []
            for await outcome in group { all.append(outcome) }
            return all.sorted { $0.name < $1.name }
        }
        for outcome in outcomes { print(outcome.summary) }
        if outcomes.contains(where: { $0.failure != nil }) { throw ExitCode(ExitStatus.connectFailed) }
        if outcomes.contains(where: { $0.timedOut }) { throw ExitCode(ExitStatus.timedOut) }
    }
}
