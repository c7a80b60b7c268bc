import Logging
import PostgresNIO

/// Every database call of the store takes its connection here (through `StoreConnections`,
/// which also bounds the wait for it), never through `PostgresClient`'s own `query`: a
/// pooled connection whose socket has already closed is refused.
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
}

/// The pool handed out a connection whose socket had already closed.
struct ClosedConnectionError: Error, CustomStringConvertible {
    var description: String { "the pooled connection had already closed" }
}
