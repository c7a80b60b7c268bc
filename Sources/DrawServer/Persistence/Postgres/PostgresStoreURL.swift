import Foundation
import NIOSSL
import PostgresNIO

/// A `--store` URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=FILE]`.
///
/// `sslmode` and `sslrootcert` mean what they mean to libpq, so an operator's URL works
/// for `psql` and the node alike (`TLSMode`). Any other option is refused rather than
/// silently ignored.
package struct PostgresStoreURL: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tlsMode = TLSMode.disable
    /// The PEM file of the certificate authorities trusted for the server's certificate
    /// (`sslrootcert`, or `--store-ca-file`); nil: the system's.
    var rootCertificateFile: String?

    static let defaultPort = 5432

    /// libpq's `sslmode` values but `allow` (plain first, TLS if refused: never wanted here).
    package enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP (the default: a database next to the nodes on a private network).
        case disable
        /// TLS when the server offers it, unverified; plain otherwise.
        case prefer
        /// TLS or no connection; the certificate is not checked (libpq checks it when a
        /// root certificate file is given: so does this, as `verify-ca`).
        case require
        /// TLS, and the server's certificate chains to a trusted authority.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate names the host (or IP address) connected to.
        case verifyFull = "verify-full"
    }

    package init(parsing text: String) throws(StoreURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw StoreURLError(url: Self.redacted(text), reason: "not a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw StoreURLError(url: Self.redacted(text), reason: "the scheme must be postgres:// (got \(scheme)://)")
        }
        guard let host = components.host, !host.isEmpty else { throw StoreURLError(url: Self.redacted(text), reason: "no host") }
        guard let user = components.user, !user.isEmpty else {
            throw StoreURLError(url: Self.redacted(text), reason: "no user (postgres://USER@HOST:PORT/DB)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreURLError(url: Self.redacted(text), reason: "no database name (postgres://USER@HOST:PORT/DB)")
        }
        self.host = host
        self.port = components.port ?? Self.defaultPort
        self.user = user
        self.password = components.password
        self.database = database
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw StoreURLError(url: Self.redacted(text), reason: "unsupported sslmode=\(item.value ?? "") (one of \(modes))")
                }
                tlsMode = mode
            case "sslrootcert":
                guard let file = item.value, !file.isEmpty else {
                    throw StoreURLError(url: Self.redacted(text), reason: "sslrootcert needs a file")
                }
                rootCertificateFile = file
            default:
                throw StoreURLError(
                    url: Self.redacted(text), reason: "unsupported option \(item.name)=\(item.value ?? "") (only sslmode and sslrootcert)"
                )
            }
        }
        if rootCertificateFile != nil, tlsMode == .disable || tlsMode == .prefer {
            throw StoreURLError(url: description, reason: "a root certificate file needs sslmode=require, verify-ca or verify-full")
        }
    }

    /// `--store-ca-file`: the same as `sslrootcert` in the URL, which must not name
    /// another one.
    mutating func trust(rootCertificateFile file: String) throws(StoreURLError) {
        guard rootCertificateFile == nil || rootCertificateFile == file else {
            throw StoreURLError(url: description, reason: "sslrootcert and --store-ca-file name different files")
        }
        guard tlsMode != .disable, tlsMode != .prefer else {
            throw StoreURLError(url: description, reason: "--store-ca-file needs sslmode=require, verify-ca or verify-full in the URL")
        }
        rootCertificateFile = file
    }

    /// Without the password, for logs and error messages; parses back to the same store
    /// but for the password.
    package var description: String {
        var text = "postgres://\(user)@\(host):\(port)/\(database)"
        var options = URLComponents()
        options.queryItems = (tlsMode == .disable ? [] : [URLQueryItem(name: "sslmode", value: tlsMode.rawValue)])
            + (rootCertificateFile.map { [URLQueryItem(name: "sslrootcert", value: $0)] } ?? [])
        if let query = options.percentEncodedQuery, !query.isEmpty { text += "?" + query }
        return text
    }

    /// The URL as typed, with any password replaced: for the errors about a URL that did
    /// not parse.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "redacted"
        return components.string ?? "(the --store URL)"
    }

    /// The TLS setting of the node's own connection and of its pool, built once at start:
    /// reads the root certificate file, so a missing or unreadable one stops the start
    /// with its reason.
    struct TLSSettings: Sendable {
        var connection: PostgresConnection.Configuration.TLS
        var pool: PostgresClient.Configuration.TLS
    }

    func tlsSettings() throws(StoreURLError) -> TLSSettings {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable:
            return TLSSettings(connection: .disable, pool: .disable)
        case .prefer:
            configuration.certificateVerification = .none
        case .require:
            configuration.certificateVerification = rootCertificateFile == nil ? .none : .noHostnameVerification
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        if let file = rootCertificateFile {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(file)
            } catch {
                throw StoreURLError(url: description, reason: "cannot read the root certificate file \(file): \(error)")
            }
            guard !certificates.isEmpty else { throw StoreURLError(url: description, reason: "no certificate in \(file)") }
            configuration.trustRoots = .certificates(certificates)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw StoreURLError(url: description, reason: "TLS: \(error)")
        }
        return tlsMode == .prefer
            ? TLSSettings(connection: .prefer(context), pool: .prefer(configuration))
            : TLSSettings(connection: .require(context), pool: .require(configuration))
    }

    func connectionConfiguration(_ tls: TLSSettings) -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls.connection)
    }

    func clientConfiguration(_ tls: TLSSettings) -> PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: tls.pool)
    }
}

/// A `--store` value that is not a usable PostgreSQL URL.
package struct StoreURLError: Error, CustomStringConvertible {
    var url: String
    var reason: String
    package var description: String { "store URL \(url): \(reason)" }
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
        if let underlying = error.underlying {
            // BoringSSL's words, put in an operator's.
            let detail = "\(underlying)"
            if detail.contains("CERTIFICATE_VERIFY_FAILED") {
                return "TLS: the server's certificate is not signed by a trusted authority (sslrootcert, --store-ca-file): \(detail)"
            }
            if detail.contains("failedToValidateHostname") {
                return "TLS: the server's certificate does not name the host in --store: \(detail)"
            }
            return "\(error.code): \(detail)"
        }
        return "\(error.code)"
    }
}
