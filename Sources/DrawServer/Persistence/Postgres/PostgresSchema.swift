import Logging
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations applied in order at start-up.
///
/// Rooms are stored as SQLite stores them: the whole `RoomSnapshot` as JSON in `room.state`
/// (plus a few columns for people and queries), strokes as packed frames (`PackedFrames`)
/// in `stroke.ops`. A field added to a snapshot flows through without a migration.
enum PostgresSchema {
    /// The `pg_advisory_lock` key that serializes migrations between nodes starting at once.
    static let migrationLockKey: Int64 = 0x6472_6177_7376_0001

    static let migrations: [(version: Int, sql: [String])] = [
        (1, [
            """
            CREATE TABLE player (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                last_seen_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE room (
                code TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                public BOOLEAN NOT NULL,
                players INTEGER NOT NULL,
                max_players INTEGER NOT NULL,
                phase TEXT NOT NULL,
                canvas_generation BIGINT NOT NULL,
                state TEXT NOT NULL,
                updated_at BIGINT NOT NULL,
                node_id TEXT NOT NULL,
                epoch BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE stroke (
                id BIGSERIAL PRIMARY KEY,
                room_code TEXT NOT NULL,
                generation BIGINT NOT NULL,
                at_ms BIGINT NOT NULL,
                ops BYTEA NOT NULL
            )
            """,
            "CREATE INDEX stroke_by_room ON stroke (room_code, generation, id)",
            """
            CREATE TABLE turn (
                id BIGSERIAL PRIMARY KEY,
                room_code TEXT NOT NULL,
                game INTEGER NOT NULL,
                turn INTEGER NOT NULL,
                round INTEGER NOT NULL,
                drawer TEXT NOT NULL,
                word TEXT NOT NULL,
                reason TEXT NOT NULL,
                scores TEXT NOT NULL,
                strokes TEXT NOT NULL,
                finished_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX turn_by_room ON turn (room_code, id)",
            """
            CREATE TABLE game (
                id BIGSERIAL PRIMARY KEY,
                room_code TEXT NOT NULL,
                game INTEGER NOT NULL,
                ranking TEXT NOT NULL,
                finished_at BIGINT NOT NULL
            )
            """,
            // One row a node: when it last committed (the SQLite store's meta.alive_at).
            """
            CREATE TABLE node (
                id TEXT PRIMARY KEY,
                alive_at BIGINT NOT NULL
            )
            """,
            // Room ownership. A row is never deleted: a released lease only expires, so a
            // room's epoch only grows and a stale owner can never meet its own epoch again.
            """
            CREATE TABLE room_leases (
                code TEXT PRIMARY KEY,
                node_id TEXT NOT NULL,
                epoch BIGINT NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL
            )
            """,
        ]),
        // Avatars and ratings, as SQLite's "v3 avatars and ratings".
        (2, [
            "ALTER TABLE player ADD COLUMN avatar TEXT",
            "ALTER TABLE turn ADD COLUMN likes INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE turn ADD COLUMN dislikes INTEGER NOT NULL DEFAULT 0",
        ]),
        // People connected in each room, for the other nodes' room lists and quick play;
        // null (a row written before it) counts as connected.
        (3, ["ALTER TABLE room ADD COLUMN connected INTEGER"]),
        // The id of the node's last batch written: a batch whose commit went unanswered
        // (its primary lost) is tried again under the same id, and written once.
        (4, ["ALTER TABLE node ADD COLUMN last_batch BIGINT"]),
        // Who is in each room, indexed: a player who resumes on a node that does not run its
        // room is sent to the one that does (`roomOf(player:)`).
        (5, [
            "ALTER TABLE room ADD COLUMN members TEXT[]",
            "CREATE INDEX room_by_member ON room USING GIN (members)",
        ]),
        // What the other nodes' room lists show, as columns: the directory read every 0.5 s
        // no longer parses every room's JSON (rows written before keep it as a fallback).
        (6, ["ALTER TABLE room ADD COLUMN language TEXT, ADD COLUMN round INTEGER, ADD COLUMN rounds INTEGER, ADD COLUMN bots INTEGER"]),
        // The directory read as changes (issue 35): every room and lease row carries the id
        // of the transaction that last wrote it, stamped by a trigger whoever writes, and a
        // deleted room leaves a row in room_gone. A node reads the rows written since the
        // oldest transaction still open at its last read (`DirectoryReads`).
        (7, [
            "ALTER TABLE room ADD COLUMN dir_xid xid8",
            "ALTER TABLE room_leases ADD COLUMN dir_xid xid8",
            "CREATE INDEX room_by_dir_xid ON room (dir_xid)",
            "CREATE INDEX lease_by_dir_xid ON room_leases (dir_xid)",
            """
            CREATE TABLE room_gone (
                code TEXT NOT NULL,
                dir_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
                gone_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """,
            "CREATE INDEX room_gone_by_dir_xid ON room_gone (dir_xid)",
            """
            CREATE FUNCTION drawserver_stamp_dir_xid() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.dir_xid := pg_current_xact_id(); RETURN NEW; END $$
            """,
            "CREATE TRIGGER room_dir_xid BEFORE INSERT OR UPDATE ON room FOR EACH ROW EXECUTE FUNCTION drawserver_stamp_dir_xid()",
            // A lease changes for the directory when it is taken, moves or is released, not
            // when its holder renews it (every second): a renewal only pushes it further.
            """
            CREATE FUNCTION drawserver_stamp_lease_dir_xid() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    NEW.dir_xid := pg_current_xact_id();
                ELSIF NEW.node_id IS DISTINCT FROM OLD.node_id OR NEW.epoch IS DISTINCT FROM OLD.epoch OR NEW.expires_at < OLD.expires_at THEN
                    NEW.dir_xid := pg_current_xact_id();
                END IF;
                RETURN NEW;
            END $$
            """,
            "CREATE TRIGGER lease_dir_xid BEFORE INSERT OR UPDATE ON room_leases FOR EACH ROW EXECUTE FUNCTION drawserver_stamp_lease_dir_xid()",
            """
            CREATE FUNCTION drawserver_note_room_gone() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN INSERT INTO room_gone (code) VALUES (OLD.code); RETURN OLD; END $$
            """,
            "CREATE TRIGGER room_gone AFTER DELETE ON room FOR EACH ROW EXECUTE FUNCTION drawserver_note_room_gone()",
        ]),
    ]

    /// Brings the schema up to date on `connection`, holding the advisory lock meanwhile so
    /// nodes starting together apply each migration once; each migration is one transaction.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_lock(\(migrationLockKey))", logger: logger)
        do {
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS drawserver_migrations (
                    version INTEGER PRIMARY KEY,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var applied = Set<Int>()
            for try await version in try await connection.query("SELECT version FROM drawserver_migrations", logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            for migration in migrations + galleryMigrations + reportMigrations where !applied.contains(migration.version) {
                try await connection.withTransaction(logger: logger) { connection in
                    for statement in migration.sql {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query("INSERT INTO drawserver_migrations (version) VALUES (\(migration.version))", logger: logger)
                }
                logger.info("store migrated", metadata: ["version": "\(migration.version)"])
            }
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLockKey))", logger: logger)
            throw error
        }
        try await connection.query("SELECT pg_advisory_unlock(\(migrationLockKey))", logger: logger)
    }
}
