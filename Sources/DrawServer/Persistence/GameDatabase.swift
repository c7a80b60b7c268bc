import Foundation
import GRDB
import Rooms

/// The SQLite file (WAL mode) holding players, rooms, seats, the current turns' strokes,
/// finished turns and finished games. One per process.
final class GameDatabase: Sendable {
    let pool: DatabasePool
    let path: String

    /// Opens (or creates) the database and brings its schema up to date.
    ///
    /// A file that is not a healthy SQLite database is reported and left untouched:
    /// nothing is written before the integrity check passes.
    init(path: String) throws(DatabaseOpenError) {
        self.path = path
        var configuration = Configuration()
        configuration.label = "drawserver"
        configuration.busyMode = .timeout(5)
        // Well below the connections: GRDB's default (userInitiated) runs its queues at a
        // higher priority than the event loops (nice -4 against 0 on Linux), so every batch
        // commit took the CPU from the deliveries. At background (nice 10) a commit uses the
        // time the event loops leave and, when they are busy, still about a tenth of the
        // core (CFS weights 110 against 1024), several times what persistence needs at full
        // load; at utility (nice 2) it took turns with them and delayed deliveries.
        configuration.qos = .background
        configuration.prepareDatabase { db in
            // Every commit reaches the disk before it counts: a power loss loses at most
            // the batch being written (see docs/PERSISTENCE.md).
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw DatabaseOpenError(path: path, reason: "cannot open: \(error)")
        }
        do {
            let check = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw DatabaseOpenError(path: path, reason: "integrity check failed: \(check.prefix(3).joined(separator: "; "))")
            }
            try Self.migrator.migrate(pool)
        } catch let error as DatabaseOpenError {
            throw error
        } catch {
            throw DatabaseOpenError(path: path, reason: "\(error)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    token_hash TEXT NOT NULL UNIQUE,
                    last_seen_at INTEGER NOT NULL
                );
                CREATE TABLE room (
                    code TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    public INTEGER NOT NULL,
                    host TEXT,
                    settings TEXT NOT NULL,
                    phase TEXT NOT NULL,
                    round INTEGER NOT NULL,
                    drawer TEXT,
                    word TEXT,
                    remaining_ms INTEGER NOT NULL,
                    canvas_generation INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE seat (
                    room_code TEXT NOT NULL REFERENCES room(code) ON DELETE CASCADE,
                    player_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    score INTEGER NOT NULL,
                    spectator INTEGER NOT NULL,
                    seat_order INTEGER NOT NULL,
                    PRIMARY KEY (room_code, player_id)
                );
                CREATE TABLE stroke (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room_code TEXT NOT NULL,
                    generation INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    ops BLOB NOT NULL
                );
                CREATE INDEX stroke_by_room ON stroke(room_code, generation, id);
                CREATE TABLE turn (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room_code TEXT NOT NULL,
                    game INTEGER NOT NULL,
                    turn INTEGER NOT NULL,
                    round INTEGER NOT NULL,
                    drawer TEXT NOT NULL,
                    word TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    scores TEXT NOT NULL,
                    strokes TEXT NOT NULL,
                    finished_at INTEGER NOT NULL
                );
                CREATE INDEX turn_by_room ON turn(room_code, id);
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                );
                CREATE TABLE game (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room_code TEXT NOT NULL,
                    game INTEGER NOT NULL,
                    ranking TEXT NOT NULL,
                    finished_at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2 packed stroke rows") { db in
            // 1: `ops` holds several frames (PackedFrames); 0: one frame, as v1 wrote.
            try db.execute(sql: "ALTER TABLE stroke ADD COLUMN packed INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v3 avatars and ratings") { db in
            // A player's avatar as JSON (`Avatar`); NULL for players stored before avatars.
            try db.execute(sql: "ALTER TABLE player ADD COLUMN avatar TEXT")
            // Likes and dislikes of a finished turn's drawing.
            try db.execute(sql: "ALTER TABLE turn ADD COLUMN likes INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "ALTER TABLE turn ADD COLUMN dislikes INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }

    /// Milliseconds since 1970, for the `*_at` columns that people read.
    static var wallClockMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// Why the database could not be opened; the file itself is never modified.
struct DatabaseOpenError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "database \(path): \(reason) (the file was not modified)" }
}
