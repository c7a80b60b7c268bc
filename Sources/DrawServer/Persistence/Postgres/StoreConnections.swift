import DrawProtocol
import Logging
import PostgresNIO
import Rooms
import Synchronization

/// The store's pool as its calls use it: each call waits at most `patience` for the pool
/// to hand it a connection, then fails like any other unreachable database (and its
/// caller keeps what it wanted written, or tries again later); and, once it has its
/// connection, holds it at most `limit`.
///
/// Why the patience: while the database refuses connections, postgres-nio's pool queues a
/// request and keeps it for as long as its circuit breaker allows (a minute of failed
/// attempts). A writer loop waiting there held up `flush()`, so a node told to stop
/// (SIGTERM) with its database gone did not exit for that minute (`PostgresFaultTests`,
/// `.aNodeWhoseDatabaseIsGoneExitsOnSigterm`).
///
/// Why the limit: a query on a connection that dies in the wrong moment can wait forever
/// (postgres-nio drops a query written to a channel that is closing; see
/// `PostgresClient.withOpenConnection`). After a PostgreSQL failover a node's writer and
/// lease loops once waited so, and its store never came back. Past the limit the call
/// fails, its connection is closed and its task is left behind: a write that did go in
/// is then tried again, which a batch's id makes harmless (`BatchInDoubt`), and a lease
/// call that did go in is one the keeper counts as failed (it gives the room up sooner,
/// never later). The cluster channel's LISTEN holds its connection for the node's life,
/// without a limit.
struct StoreConnections: Sendable {
    let pool: PostgresClient
    /// How long a call waits for a connection.
    let patience: Duration
    /// How long a call may hold its connection, unless it says otherwise.
    let limit: Duration
    /// The store's clock: the patience and the limit are its deadlines.
    let clock: ServerClock

    /// How long one call may hold its connection.
    enum CallLimit: Sendable {
        /// The store's `limit`.
        case standard
        case at(Duration)
        /// For as long as it runs (the cluster channel's LISTEN).
        case unlimited
    }

    /// Runs `body` on a pooled connection that is still open, once the pool hands one over
    /// within `patience`; fails with `StoreCallTooLong` once `body` has held it past `limit`.
    func withOpenConnection<Result: Sendable>(
        limit: CallLimit = .standard, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let deadline: Duration
        switch limit {
        case .standard: deadline = self.limit
        case .at(let duration): deadline = duration
        case .unlimited: return try await leasing(body)
        }
        let call = LimitedCall<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation)
                call.started(Task {
                    do {
                        call.finish(.success(try await leasing { connection in
                            // The limit counts from here: the wait had its own.
                            call.holding(connection, timer: clock.schedule(deadline) {
                                // Closed before the caller hears: the pool must not hand it
                                // out again. That fails whatever still waits on it, and the
                                // pool drops it.
                                call.expire(StoreCallTooLong(limit: deadline), closingConnectionOn: clock)
                            })
                            return try await body(connection)
                        }))
                    } catch {
                        call.finish(.failure(error))
                    }
                })
            }
        } onCancel: {
            call.expire(CancellationError(), closingConnectionOn: nil)
        }
    }

    /// `body` on a pooled connection, the wait for it bounded by `patience`.
    private func leasing<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let race = LeaseRace()
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { [pool] in
                try await pool.withOpenConnection { connection in
                    guard race.leased() else { throw ConnectionWaitExpired(patience: patience) }
                    return try await body(connection)
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

    /// `body` in a transaction on a pooled connection that is still open.
    func withOpenTransaction<Result: Sendable>(
        limit: CallLimit = .standard, logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withOpenConnection(limit: limit) { connection in
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

/// A call held its connection longer than its limit: the connection is closed.
struct StoreCallTooLong: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "no answer from the database within \(DurationText.milliseconds(limit)) ms" }
}

/// One limited call: its result or its deadline, whichever comes first, ends the caller's
/// wait; the deadline also hands back the connection to close and cancels the work.
private final class LimitedCall<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var connection: PostgresConnection?
        var work: Task<Void, Never>?
        var timer: ClockTimer?
        var ended = false
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        let endedAlready = state.withLock { s -> Bool in
            if !s.ended { s.continuation = continuation }
            return s.ended
        }
        if endedAlready { continuation.resume(throwing: CancellationError()) }
    }

    func started(_ work: Task<Void, Never>) {
        let endedAlready = state.withLock { s -> Bool in
            if !s.ended { s.work = work }
            return s.ended
        }
        if endedAlready { work.cancel() }
    }

    func holding(_ connection: PostgresConnection, timer: ClockTimer) {
        let endedAlready = state.withLock { s -> Bool in
            if !s.ended { (s.connection, s.timer) = (connection, timer) }
            return s.ended
        }
        if endedAlready { timer.cancel() }
    }

    func finish(_ result: Result<Value, any Error>) {
        let (continuation, timer) = state.withLock { s -> (CheckedContinuation<Value, any Error>?, ClockTimer?) in
            guard !s.ended else { return (nil, nil) }
            s.ended = true
            defer { (s.continuation, s.timer, s.work, s.connection) = (nil, nil, nil, nil) }
            return (s.continuation, s.timer)
        }
        timer?.cancel()
        continuation?.resume(with: result)
    }

    /// Ends the wait with `error` unless the call ended first. With a clock, the connection
    /// the call held is closed first, waiting at most `closePatience` for that (a close
    /// waits for the query in flight, which may never end).
    func expire(_ error: any Error, closingConnectionOn clock: ServerClock?) {
        let (continuation, work, connection, timer) = state.withLock {
            s -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?, PostgresConnection?, ClockTimer?) in
            guard !s.ended else { return (nil, nil, nil, nil) }
            s.ended = true
            defer { (s.continuation, s.timer, s.work, s.connection) = (nil, nil, nil, nil) }
            return (s.continuation, s.work, s.connection, s.timer)
        }
        timer?.cancel()
        guard let continuation else { return }
        guard let clock, let connection else {
            work?.cancel()
            return continuation.resume(throwing: error)
        }
        // The work is not cancelled: it keeps the connection leased until the close has
        // failed its query, so the pool cannot hand out a connection that is closing.
        let resume = Once { continuation.resume(throwing: error) }
        Task {
            try? await connection.close()
            resume.run()
        }
        _ = clock.schedule(Self.closePatience) { resume.run() }
    }

    /// How long an expired call waits for its connection to close.
    static var closePatience: Duration { .seconds(1) }
}

/// Runs its body the first time `run()` is called.
private final class Once: Sendable {
    private let body: Mutex<(@Sendable () -> Void)?>
    init(_ body: @escaping @Sendable () -> Void) { self.body = Mutex(body) }
    func run() { body.withLock { b in defer { b = nil }; return b }?() }
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

