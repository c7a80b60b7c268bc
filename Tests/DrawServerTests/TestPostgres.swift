import Foundation
import Logging
import PostgresNIO
import Testing
@testable import DrawServer

/// The PostgreSQL server the store's tests use: `DRAWSERVER_TEST_POSTGRES_URL`, which
/// scripts/test-all sets after starting a throwaway cluster (scripts/pg-test-cluster).
/// Without it those tests are skipped, each saying why.
enum TestPostgres {
    static let url = ProcessInfo.processInfo.environment["DRAWSERVER_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var isAvailable: Bool { url != nil }
    static let skipped: Comment = "DRAWSERVER_TEST_POSTGRES_URL is not set: no PostgreSQL to test against (scripts/test-all starts one with scripts/pg-test-cluster)"
    static let logger = Logger(label: "drawserver-test-postgres")

    /// A new, empty database on the test server, so tests never see each other's rows.
    static func freshDatabase() async throws -> PostgresStoreURL {
        var url = try PostgresStoreURL(parsing: try #require(Self.url))
        let name = "drawserver_test_\(UInt64.random(in: 0...UInt64.max))"
        let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration(try url.tlsSettings()), id: 1, logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        try await connection.close()
        url.database = name
        return url
    }

    /// Runs one query on its own connection and returns the first column of its first row.
    static func value<T: PostgresDecodable & Sendable>(_ url: PostgresStoreURL, _ sql: String, as type: T.Type) async throws -> T? {
        let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration(try url.tlsSettings()), id: 2, logger: logger)
        var result: T?
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(T.self) {
            if result == nil { result = value }
        }
        try await connection.close()
        return result
    }

    static func execute(_ url: PostgresStoreURL, _ sql: String) async throws {
        let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration(try url.tlsSettings()), id: 3, logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        try await connection.close()
    }

    static func integer(_ url: PostgresStoreURL, _ sql: String) async throws -> Int64? {
        try await value(url, sql, as: Int64.self)
    }

    static func string(_ url: PostgresStoreURL, _ sql: String) async throws -> String? {
        try await value(url, sql, as: String.self)
    }
}
