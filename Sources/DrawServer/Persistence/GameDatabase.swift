import DrawProtocol
import Foundation
import GRDB
import Rooms

/// The SQLite file (WAL mode) holding players, rooms, seats, the current turns' strokes,
/// finished turns and finished games. One per process.
final class GameDatabase: Sendable {
    let pool: DatabasePool
    let path: String

    /// Test only: a file holding a page count. While it exists, the writer connection runs
    /// with `PRAGMA max_page_count` at that count (a full disk without root); while it is
    /// missing, without a limit. Read when the database opens and before every commit.
    let testPageLimitFile: String?

    /// Opens (or creates) the database, brings its schema up to date and checks that it
    /// takes writes.
    ///
    /// A file that is not a healthy SQLite database is reported and left untouched: it is
    /// checked on a read-only connection before anything opens it for writing.
    init(path: String, testPageLimitFile: String? = nil) throws(DatabaseOpenError) {
        self.path = path
        self.testPageLimitFile = testPageLimitFile
        try Self.checkExistingFile(at: path)
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
            if let limit = Self.testPageLimit(testPageLimitFile) { try db.execute(sql: "PRAGMA max_page_count = \(limit)") }
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw DatabaseOpenError(path: path, reason: "cannot open: \(Self.oneLine(error))")
        }
        do {
            try Self.migrator.migrate(pool)
        } catch {
            throw DatabaseOpenError(path: path, reason: "cannot migrate: \(Self.oneLine(error))")
        }
        do {
            // A database that opens but cannot take a write (a read-only file, no space for
            // its journal) would fail every commit: say so now. `alive_at` is not touched:
            // loading the rooms still needs it.
            try pool.write { db in
                try db.execute(
                    sql: "INSERT INTO meta (key, value) VALUES ('opened_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    arguments: [Self.wallClockMs]
                )
            }
        } catch {
            throw DatabaseOpenError(path: path, reason: "cannot write: \(Self.oneLine(error))")
        }
    }

    /// Runs `PRAGMA quick_check` on a read-only connection when the file exists and is not
    /// empty, so a damaged file is never opened for writing (opening a pool may switch the
    /// file to WAL mode, a write).
    private static func checkExistingFile(at path: String) throws(DatabaseOpenError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > 0 else { return }
        var configuration = Configuration()
        configuration.readonly = true
        let check: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            check = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            try queue.close()
        } catch {
            throw DatabaseOpenError(path: path, reason: "cannot read: \(oneLine(error))", untouched: true)
        }
        guard check == ["ok"] else {
            throw DatabaseOpenError(path: path, reason: "integrity check failed: \(check.prefix(3).joined(separator: "; "))", untouched: true)
        }
    }

    /// An error on one line, without the SQL GRDB appends (migrations span many lines).
    static func oneLine(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return StorageFault(sqlite: error).description
        }
        return "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The page count in the test hook's file, or nil for no limit.
    static func testPageLimit(_ file: String?) -> Int? {
        guard let file, let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Sets or lifts the test hook's page limit on the writer connection (before a commit).
    func applyTestPageLimit(_ db: Database) throws {
        guard testPageLimitFile != nil else { return }
        // 4294967294 is SQLite's largest page count: no limit.
        let limit = Self.testPageLimit(testPageLimitFile) ?? 4_294_967_294
        try db.execute(sql: "PRAGMA max_page_count = \(limit)")
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
        migrator.registerMigration("v4 drawing ids") { db in
            // The id a finished turn's images are served under (`/d/ID.png`); NULL for an
            // empty canvas and for turns stored before drawing ids. Unique: SQLite lets any
            // number of NULLs share a unique index.
            try db.execute(sql: "ALTER TABLE turn ADD COLUMN drawing_id TEXT")
            try db.execute(sql: "CREATE UNIQUE INDEX turn_by_drawing ON turn(drawing_id)")
        }
        migrator.registerMigration("v5 gallery") { db in
            // What the gallery lists and filters by (docs/PERSISTENCE.md, "Drawings and the
            // gallery"). Turns stored before v5 count as private.
            try db.execute(sql: """
                ALTER TABLE turn ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE turn ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
                ALTER TABLE turn ADD COLUMN drawer_name TEXT NOT NULL DEFAULT '';
                ALTER TABLE turn ADD COLUMN opted_out INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX turn_listed ON turn(public, opted_out, id) WHERE drawing_id IS NOT NULL;
                CREATE TABLE drawing_player (
                    drawing_id TEXT NOT NULL,
                    player_id TEXT NOT NULL,
                    PRIMARY KEY (drawing_id, player_id)
                );
                CREATE INDEX drawing_player_by_player ON drawing_player(player_id);
                CREATE TABLE removed_drawing (
                    drawing_id TEXT PRIMARY KEY NOT NULL,
                    removed_at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v6 reports") { db in
            // Players' reports with the evidence captured when each was made (docs/PROTOCOL.md
            // section 9.3); `closed_at` and `action` once a moderator acted.
            try db.execute(sql: """
                CREATE TABLE report (
                    id TEXT PRIMARY KEY NOT NULL,
                    filed_at INTEGER NOT NULL,
                    reason TEXT NOT NULL,
                    reporter TEXT NOT NULL,
                    reporter_name TEXT NOT NULL,
                    reported TEXT,
                    reported_name TEXT,
                    room TEXT,
                    drawing_id TEXT,
                    chat_text TEXT,
                    chat TEXT NOT NULL,
                    strokes TEXT,
                    closed_at INTEGER,
                    action TEXT
                );
                CREATE INDEX report_open ON report(closed_at, filed_at);
                CREATE INDEX report_by_drawing ON report(drawing_id);
                """)
        }
        migrator.registerMigration("v7 report turns, bans and gallery settings") { db in
            // A canvas reported while its turn was drawn names the turn (`ROOM/GAME/TURN`)
            // until the turn ends; then `drawing_id` (NULL: the canvas ended empty).
            // Moderators' bans (until, ms since 1970) and players' gallery settings survive
            // restarts (docs/PROTOCOL.md sections 10.2 and 10.5).
            try db.execute(sql: """
                ALTER TABLE report ADD COLUMN turn_key TEXT;
                ALTER TABLE report ADD COLUMN turn_ended INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX report_by_turn ON report(turn_key) WHERE turn_key IS NOT NULL;
                CREATE TABLE ban (
                    player_id TEXT PRIMARY KEY NOT NULL,
                    until_at INTEGER NOT NULL,
                    changed_at INTEGER NOT NULL
                );
                CREATE TABLE gallery_setting (
                    player_id TEXT PRIMARY KEY NOT NULL,
                    listed INTEGER NOT NULL,
                    changed_at INTEGER NOT NULL
                );
                """)
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
    /// Found before anything opened the file for writing. Later failures (open, migrate,
    /// write) roll back their transaction, but opening may have switched the file to WAL.
    var untouched = false
    var description: String { "database \(path): \(reason)" + (untouched ? " (the file was not modified)" : "") }
}
