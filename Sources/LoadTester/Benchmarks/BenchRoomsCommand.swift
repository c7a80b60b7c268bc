import ArgumentParser
import Canvas
import DrawProtocol
import Foundation
import ProcessStats
import Rooms

/// `drawserver bench-rooms`: how many events per second the game core handles.
package struct BenchRoomsCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-rooms",
        abstract: "Benchmark the Rooms core: events per second over full scripted games."
    )

    @Option(help: "Games to play.")
    var games = 200
    @Option(help: "Players per room.")
    var players = 8

    package func run() throws {
        let log = SampleDrawing.make(seed: 3)
        let names = (0..<players).map { "p\($0)" }
        var events = 0
        var frames = 0
        let start = ContinuousClock.now
        let cpu = ProcessCPU.seconds
        for game in 0..<games {
            var settings = RoomSettings()
            settings.rounds = 1
            var room = Room(code: RoomCode(parsing: "BENCH2")!, name: "bench", isPublic: true, settings: settings, seed: UInt64(game))
            var now = Timestamp(milliseconds: 0)
            for name in names {
                _ = room.join(PlayerID(name), name: name, now: now)
                events += 1
            }
            for name in names {
                _ = room.handle(.ready(true), from: PlayerID(name), now: now)
                events += 1
            }
            while room.phase != .gameEnd {
                guard room.phase == .choosing, let drawer = room.drawer else {
                    now = room.nextDeadline ?? now + 1_000
                    _ = room.tick(now: now)
                    events += 1
                    continue
                }
                _ = room.handle(.choose(index: 0), from: drawer, now: now)
                events += 1
                let word = room.view(for: drawer, now: now).word ?? ""
                // The drawer draws a whole sample drawing; everyone chats and then guesses.
                for frame in log.frames {
                    _ = room.draw(frame: frame.bytes, from: drawer, now: now + frame.at / 100)
                    frames += 1
                }
                events += log.frames.count
                now = now + 20_000
                for name in names where PlayerID(name) != drawer {
                    _ = room.handle(.chat("is it a house?"), from: PlayerID(name), now: now)
                    _ = room.handle(.guess(word), from: PlayerID(name), now: now)
                    events += 2
                }
                _ = room.tick(now: now)
                events += 1
            }
        }
        let seconds = Double((ContinuousClock.now - start).components.attoseconds) / 1e18 + Double((ContinuousClock.now - start).components.seconds)
        let used = ProcessCPU.seconds - cpu
        print("Rooms core: \(games) games of \(players) players, 1 round each")
        print(String(format: "  events           %d (%d drawing frames)", events, frames))
        print(String(format: "  wall time        %.3f s", seconds))
        print(String(format: "  events/second    %.0f", Double(events) / seconds))
        print(String(format: "  CPU per event    %.2f µs", used / Double(events) * 1e6))
    }
}
