import ArgumentParser
import Foundation
import GRDB

/// `drawserver backup`: a consistent copy of the database while the server runs, through
/// SQLite's online backup API (GRDB's `backup(to:)`). The copy is written next to the
/// output under a temporary name, checked, then renamed, so a failed backup never leaves a
/// half-written file where a good one is expected.
package struct BackupCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a drawserver database (it may be running) to a file, and check the copy.",
        discussion: "Restore: stop the server, replace its --db file with the copy (delete any -wal and -shm files next to it), start it. See docs/PERSISTENCE.md."
    )

    @Option(help: "The SQLite database of a drawserver (it may be running).")
    var db: String
    @Option(name: .shortAndLong, help: "The copy to write; must not exist yet.")
    var output: String

    package func run() throws {
        guard FileManager.default.fileExists(atPath: db) else { throw ValidationError("no database at \(db)") }
        guard !FileManager.default.fileExists(atPath: output) else { throw ValidationError("\(output) exists; choose a new name") }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let source: DatabasePool
        do {
            source = try DatabasePool(path: db, configuration: configuration)
        } catch {
            throw ValidationError("cannot open \(db): \(error)")
        }
        let temporary = output + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let pages: Int
        do {
            let destination = try DatabaseQueue(path: temporary)
            // One step: the copy is the database as of one moment, however busy the server.
            try source.backup(to: destination)
            let check = try destination.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard check == ["ok"] else {
                throw ValidationError("the copy failed its integrity check: \(check.prefix(3).joined(separator: "; "))")
            }
            pages = try destination.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
            try destination.close()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("backup failed: \(error)")
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: output)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print("wrote \(output): \(bytes) bytes, \(pages) pages, integrity_check ok")
    }
}
