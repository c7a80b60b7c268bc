import DrawProtocol
import Logging
import PostgresNIO
import Rooms
import Synchronization

/// The store's pool as its calls use it: each call waits at most `patience` for the pool
/// to hand it a connection, then fails like any other unreachable database (and its
/// caller keeps what it wanted written, or tries again later).
///
/// Why: while the database refuses connections, postgres-nio's pool queues a request and
/// keeps it for as long as its circuit breaker allows (a minute of failed attempts). A
/// writer loop waiting there held up `flush()`, so a node told to stop (SIGTERM) with its
/// database gone did not exit for that minute (`PostgresFaultTests`,
/// `.aNodeWhoseDatabaseIsGoneExitsOnSigterm`). Only the wait for a connection is bounded:
/// once a call has its connection it runs as long as it runs (a LISTEN for the node's life),
/// and a call that got one never also reports that it timed out, so a batch is never
/// written and then retried.
struct StoreConnections: Sendable {
    let pool: PostgresClient
    /// How long a call waits for a connection.
    let patience: Duration
    /// The store's clock: the patience is one of its deadlines.
    let clock: ServerClock

    /// Runs `body` on a pooled connection that is still open, once the pool hands one over
    /// within `patience`.
    func withOpenConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        let race = LeaseRace()
        return try await withoutActuallyEscaping(body) { body in
            // Only the child below calls it, once, while this call waits for that child.
            let work = UncheckedBody(run: body)
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask { [pool] in
                    try await pool.withOpenConnection { connection in
                        guard race.leased() else { throw ConnectionWaitExpired(patience: patience) }
                        return try await work.run(connection)
                    }
                }
                group.addTask { [clock, patience] in
                    await clock.sleepUnlessCancelled(patience)
                    if !Task.isCancelled, race.expired() { throw ConnectionWaitExpired(patience: patience) }
                    return nil
                }
                while let finished = try await group.next() {
                    if let result = finished {
                        group.cancelAll()
                        return result
                    }
                }
                // Both children ended and neither returned a result nor threw: cannot happen.
                throw ConnectionWaitExpired(patience: patience)
            }
        }
    }

    /// `body` in a transaction on a pooled connection that is still open.
    func withOpenTransaction<Result: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await withOpenConnection { connection in
            try await connection.withTransaction(logger: logger) { try await body($0) }
        }
    }

    /// Runs a statement and discards its rows.
    func execute(_ query: PostgresQuery, logger: Logger) async throws {
        try await withOpenConnection { connection in
            for try await _ in try await connection.query(query, logger: logger) {}
        }
    }

    /// The rows of a query, decoded, read whole before the connection goes back to the pool.
    func rows<each Column: PostgresDecodable & Sendable>(
        _ query: PostgresQuery, as type: (repeat each Column).Type, logger: Logger
    ) async throws -> [(repeat each Column)] {
        try await withOpenConnection { connection in
            var rows: [(repeat each Column)] = []
            for try await row in try await connection.query(query, logger: logger).decode(type) { rows.append(row) }
            return rows
        }
    }

    /// The rows of a one-column query, decoded.
    func rows<Column: PostgresDecodable & Sendable>(
        _ query: PostgresQuery, as type: Column.Type, logger: Logger
    ) async throws -> [Column] {
        try await withOpenConnection { connection in
            var rows: [Column] = []
            for try await row in try await connection.query(query, logger: logger).decode(type) { rows.append(row) }
            return rows
        }
    }
}

/// No connection came within the store's patience: the database is unreachable, or every
/// connection is busy for that long.
struct ConnectionWaitExpired: Error, CustomStringConvertible {
    var patience: Duration
    var description: String { "no connection to the database within \(DurationText.milliseconds(patience)) ms" }
}

/// Which came first for one call: its connection or its deadline. Exactly one wins.
private final class LeaseRace: Sendable {
    private enum State { case waiting, leased, expired }
    private let state = Mutex(State.waiting)

    /// The connection came: true unless the deadline won.
    func leased() -> Bool { settle(.leased) }
    /// The deadline passed: true unless the connection won.
    func expired() -> Bool { settle(.expired) }

    private func settle(_ outcome: State) -> Bool {
        state.withLock { s in
            guard s == .waiting else { return s == outcome }
            s = outcome
            return true
        }
    }
}

/// The caller's closure, handed to the one child task that runs it while the caller waits.
private struct UncheckedBody<Result>: @unchecked Sendable {
    let run: (PostgresConnection) async throws -> Result
}
