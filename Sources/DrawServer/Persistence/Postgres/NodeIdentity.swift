import Logging
import PostgresNIO
import Synchronization

/// The node id's session lock: held on a connection of its own for as long as the node
/// runs, so a second process started with the same `--node-id` is refused (two processes
/// writing as one node would share its leases and batch ids).
///
/// A PostgreSQL failover, or any lost connection, ends the session and with it the lock:
/// `keep` takes it again on a new connection. If another session took it meanwhile, this
/// node stops.
final class NodeIdentity: Sendable {
    let nodeID: String
    private let configuration: PostgresConnection.Configuration
    private let state: Mutex<State>
    private let clock: ServerClock
    private let logger: Logger

    private struct State {
        var connection: PostgresConnection
        /// The server process of the connection's session, to end it should it outlive the
        /// connection (a server that never saw the client go).
        var backend: Int32?
        var closed = false
    }

    /// How often the lock's connection is checked.
    static let checkInterval = Duration.seconds(1)
    /// How long a check may wait for its answer before the connection counts as lost (a
    /// server that vanished without closing it).
    static let checkPatience = Duration.seconds(2)
    /// How often start-up asks again for a node id another process holds.
    static let retry = Duration.milliseconds(100)

    private init(
        nodeID: String, connection: PostgresConnection, backend: Int32?, configuration: PostgresConnection.Configuration, clock: ServerClock,
        logger: Logger
    ) {
        self.nodeID = nodeID
        self.configuration = configuration
        self.state = Mutex(State(connection: connection, backend: backend))
        self.clock = clock
        self.logger = logger
    }

    /// Takes the lock on `connection`, asking again for `patience`; nil when another
    /// session keeps it. The connection is the identity's from then on.
    static func take(
        _ nodeID: String, on connection: PostgresConnection, configuration: PostgresConnection.Configuration, patience: Duration,
        clock: ServerClock, logger: Logger
    ) async throws -> NodeIdentity? {
        let deadline = clock.elapsed() + patience
        while true {
            if try await tryLock(nodeID, on: connection, logger: logger) {
                let backend = try? await backendPID(of: connection, logger: logger)
                return NodeIdentity(nodeID: nodeID, connection: connection, backend: backend, configuration: configuration, clock: clock, logger: logger)
            }
            guard clock.elapsed() < deadline else { return nil }
            await clock.sleep(retry)
        }
    }

    private static func key(_ nodeID: String) -> String { "drawserver node \(nodeID)" }

    private static func tryLock(_ nodeID: String, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        for try await held in try await connection.query(
            "SELECT pg_try_advisory_lock(hashtextextended(\(key(nodeID)), 0))", logger: logger
        ).decode(Bool.self) where held {
            return true
        }
        return false
    }

    private static func backendPID(of connection: PostgresConnection, logger: Logger) async throws -> Int32? {
        for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(Int32.self) { return pid }
        return nil
    }

    /// The server process whose session holds the node id's lock, if any. (An advisory
    /// lock is the database's; on a bigint it shows its high half as `classid`, its low
    /// half as `objid`.)
    private static func holder(_ nodeID: String, on connection: PostgresConnection, logger: Logger) async throws -> Int32? {
        for try await pid in try await connection.query("""
            SELECT l.pid FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(\(key(nodeID)), 0)
            """, logger: logger).decode(Int32.self) {
            return pid
        }
        return nil
    }

    /// Checks the lock's connection every `checkInterval` until cancelled; a lost one is
    /// replaced and the lock taken again (a database that cannot be reached is asked again
    /// at the next check). Throws `NodeIdentityTaken` when another session holds it.
    func keep() async throws {
        while !Task.isCancelled {
            await clock.sleepUnlessCancelled(Self.checkInterval)
            guard !Task.isCancelled else { return }
            let current = state.withLock { $0.connection }
            if await isAlive(current) { continue }
            // A connection that did not answer may still be open: it must not hold the
            // lock beside the new one. Kept until its channel is closed (postgres-nio
            // requires a connection to be closed before it is freed).
            Task {
                try? await current.close()
                try? await current.closeFuture.get()
            }
            logger.warning("the node id's database session was lost: taking its lock again", metadata: ["node": "\(nodeID)"])
            let fresh: PostgresConnection
            do {
                fresh = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            } catch {
                logger.error("cannot reach the database to take the node id's lock again", metadata: ["error": "\(StoreOpenError.reason(error))"])
                continue
            }
            let held: Bool
            do {
                held = try await takeBack(on: fresh)
            } catch {
                try? await fresh.close()
                continue
            }
            guard held else {
                try? await fresh.close()
                throw NodeIdentityTaken(nodeID: nodeID)
            }
            let backend = try? await Self.backendPID(of: fresh, logger: logger)
            let closed = state.withLock { s -> Bool in
                if !s.closed { (s.connection, s.backend) = (fresh, backend) }
                return s.closed
            }
            if closed { try? await fresh.close() }
            logger.notice("the node id's lock is held again", metadata: ["node": "\(nodeID)"])
        }
    }

    /// Takes the lock on `connection`. Held by this node's own earlier session (still open
    /// on the server, which never saw the client go), that session is ended and the lock
    /// asked for again; false when another process holds it.
    private func takeBack(on connection: PostgresConnection) async throws -> Bool {
        let earlier = state.withLock { $0.backend }
        for _ in 0..<Self.takeBackAttempts {
            if try await Self.tryLock(nodeID, on: connection, logger: logger) { return true }
            guard let holder = try await Self.holder(nodeID, on: connection, logger: logger) else { continue }
            guard holder == earlier else { return false }
            try await connection.query("SELECT pg_terminate_backend(\(holder))", logger: logger)
            await clock.sleep(Self.retry)
        }
        return false
    }

    /// How many times `takeBack` asks for the lock.
    static let takeBackAttempts = 20

    /// Whether `connection` answers a query within `checkPatience`. The query runs in a
    /// task of its own: one on a connection cut off mid-way may never return.
    private func isAlive(_ connection: PostgresConnection) async -> Bool {
        guard !connection.isClosed else { return false }
        let logger = self.logger
        return await withCheckedContinuation { continuation in
            let answer = Answer(continuation)
            let timer = clock.schedule(Self.checkPatience) { answer.give(false) }
            Task {
                let alive = (try? await connection.query("SELECT 1", logger: logger)) != nil
                timer.cancel()
                answer.give(alive)
            }
        }
    }

    /// Lets go of the lock (closes its connection).
    func close() async {
        let connection = state.withLock { s -> PostgresConnection in
            s.closed = true
            return s.connection
        }
        try? await connection.close()
        try? await connection.closeFuture.get()
    }
}

/// Another session holds this node's id: the process that has it runs as this node now.
struct NodeIdentityTaken: Error, CustomStringConvertible {
    var nodeID: String
    var description: String { "another process took node id \(nodeID) while this one had lost its database session" }
}

/// The first of two answers (the probe's, the deadline's) resumes the waiter.
private final class Answer: Sendable {
    private let continuation: CheckedContinuation<Bool, Never>
    private let given = Atomic<Bool>(false)

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

    func give(_ alive: Bool) {
        if !given.exchange(true, ordering: .acquiringAndReleasing) { continuation.resume(returning: alive) }
    }
}
