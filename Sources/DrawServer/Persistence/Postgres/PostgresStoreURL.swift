import Foundation
import PostgresNIO

/// A `--store` URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
///
/// TLS is not spoken: the store is meant to sit next to the nodes (loopback or a private
/// network); `sslmode` other than `disable` is refused rather than silently ignored.
package struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String

    static let defaultPort = 5432

    package init(parsing text: String) throws(StoreURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw StoreURLError(url: text, reason: "not a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw StoreURLError(url: text, reason: "the scheme must be postgres:// (got \(scheme)://)")
        }
        guard let host = components.host, !host.isEmpty else { throw StoreURLError(url: text, reason: "no host") }
        guard let user = components.user, !user.isEmpty else { throw StoreURLError(url: text, reason: "no user (postgres://USER@HOST:PORT/DB)") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreURLError(url: text, reason: "no database name (postgres://USER@HOST:PORT/DB)")
        }
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode", item.value == "disable" else {
                throw StoreURLError(url: text, reason: "unsupported option \(item.name)=\(item.value ?? "") (only sslmode=disable)")
            }
        }
        self.host = host
        self.port = components.port ?? Self.defaultPort
        self.user = user
        self.password = components.password
        self.database = database
    }

    /// Without the password, for logs and error messages.
    package var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }

    var clientConfiguration: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }
}

/// A `--store` value that is not a usable PostgreSQL URL.
package struct StoreURLError: Error, CustomStringConvertible {
    var url: String
    var reason: String
    package var description: String { "store URL: \(reason)" }
}

/// The store could not be opened at start-up (unreachable, refused, migrations failed).
package struct StoreOpenError: Error, CustomStringConvertible {
    var store: String
    var reason: String
    package var description: String { "store \(store): \(reason)" }

    /// One line, with PostgreSQL's own message when there is one (PSQLError hides its
    /// details from `description`).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }
}
