import Foundation
import PostgresNIO
import ServerTestSupport
import Testing
@testable import DrawServer

/// A store call whose answer never comes (postgres-nio can drop a query written to a
/// connection that is closing) fails after the call limit, its connection is closed, and
/// the store goes on: a failover once left a node's writer and lease loops waiting forever.
@Suite("PostgreSQL call limit", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct PostgresCallLimitTests {
    @Test func aCallWithNoAnswerFailsAtItsLimitAndThePoolStaysUsable() async throws {
        let url = try await TestPostgres.freshDatabase()
        var configuration = PostgresGameStore.Configuration()
        configuration.callLimit = .milliseconds(300)
        let store = try await PostgresGameStore.open(url: url, nodeID: "limited", configuration: configuration, logger: TestPostgres.logger)
        do {
            try await check(store)
        } catch {
            await store.close()
            Issue.record("\(String(reflecting: error))")
            throw error
        }
        await store.close()
    }

    private func check(_ store: PostgresGameStore) async throws {
        // More hung calls than the pool has connections (4): each one's connection is
        // closed at its limit, so the pool makes new ones.
        for _ in 0..<6 {
            let started = ContinuousClock.now
            await #expect(throws: StoreCallTooLong.self) {
                try await store.client.withOpenConnection { _ in
                    // An answer that never comes: never resumed.
                    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
                }
            }
            #expect(ContinuousClock.now - started < .seconds(4))
        }
        #expect(try await store.client.rows("SELECT 1::bigint", as: Int64.self, logger: TestPostgres.logger) == [1])
        // A query that runs past the limit is cut as well; the caller hears within the close's
        // patience, though the server finishes the query first.
        let started = ContinuousClock.now
        await #expect(throws: StoreCallTooLong.self) {
            try await store.client.execute("SELECT pg_sleep(3)", logger: TestPostgres.logger)
        }
        #expect(ContinuousClock.now - started < .seconds(2.5))
        // Until that close ends, postgres-nio may hand out the closing connection once (the
        // call fails as a lost connection, and its caller tries again, as after any).
        try await waitUntil(seconds: 10) {
            (try? await store.client.rows("SELECT 1::bigint", as: Int64.self, logger: TestPostgres.logger)) == [1]
        }
        // The cluster channel's LISTEN holds its connection for as long as it runs.
        let held = try await store.client.withOpenConnection(limit: .unlimited) { connection in
            try await Task.sleep(for: .milliseconds(800))
            return try await connection.query("SELECT 2::bigint", logger: TestPostgres.logger).collect().count
        }
        #expect(held == 1)
    }
}
