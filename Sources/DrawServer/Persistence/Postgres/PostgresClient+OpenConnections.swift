import Logging
import PostgresNIO

/// Every database call of the store goes through these, never through `PostgresClient`'s
/// own `query`: they refuse a pooled connection whose socket has already closed.
///
/// Why: when a connection's socket closes (a partition healed with a reset, the database
/// restarted), the request running on it fails and its lease goes back to the pool, which
/// hears of the close only a moment later, when the channel's close completes. A request
/// leased in that moment gets the dead connection, and postgres-nio writes its query to
/// the channel without a promise: once the channel has dropped its handlers the query is
/// thrown away and its caller waits forever. That hung the writer loop after a partition
/// (`PostgresPartitionTests.aNodeCutOffFromTheDatabaseStopsItsRoomsBeforeAnotherTakesThem`;
/// docs/RELIABILITY.md has the loops' counts). Refused here, the call fails at once like any other
/// lost connection and is tried again by its caller.
extension PostgresClient {
    /// Runs `body` on a pooled connection that is still open.
    func withOpenConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await withConnection { connection in
            guard !connection.isClosed else { throw ClosedConnectionError() }
            return try await body(connection)
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

/// The pool handed out a connection whose socket had already closed.
struct ClosedConnectionError: Error, CustomStringConvertible {
    var description: String { "the pooled connection had already closed" }
}
