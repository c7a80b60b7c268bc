import ArgumentParser
import Canvas
import Foundation

/// `drawserver export`: a finished turn's stroke log from the database, as NDJSON.
package struct ExportCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a finished turn's stroke log (protocol section 7) from the database.",
        discussion: "Turns are numbered from 1 (the oldest kept) per room; without --turn the latest is written. Use --list to see them."
    )

    @Option(help: "The SQLite database of a drawserver (it may be running).")
    var db: String
    @Option(help: "Room code.")
    var room: String
    @Option(help: "Turn number within the room (1 = oldest kept); default: the latest.")
    var turn: Int?
    @Option(name: .shortAndLong, help: "Output file (.ndjson); - for standard output.")
    var output: String = "-"
    @Flag(help: "List the room's finished turns instead of exporting one.")
    var list = false

    package func run() throws {
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no database at \(db)") }
        let database: GameDatabase
        do {
            database = try GameDatabase(path: db)
        } catch {
            throw ValidationError("\(error)")
        }
        let code = room.uppercased()
        let turns = try database.finishedTurns(room: code)
        guard !turns.isEmpty else { throw ValidationError("room \(code) has no finished turns in \(db)") }
        if list {
            for (index, turn) in turns.enumerated() {
                let frames = turn.strokes.split(separator: "\n").count - 1
                print("\(index + 1)\t\(turn.word)\t\(frames) frames")
            }
            return
        }
        let number = turn ?? turns.count
        guard (1...turns.count).contains(number) else {
            throw ValidationError("room \(code) has turns 1 to \(turns.count)")
        }
        let ndjson = turns[number - 1].strokes
        if output == "-" {
            FileHandle.standardOutput.write(Data(ndjson.utf8))
        } else {
            try Data(ndjson.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        }
    }
}
