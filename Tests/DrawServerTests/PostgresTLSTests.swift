import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

/// TLS between a node and PostgreSQL (`sslmode` and `sslrootcert` in `--store`, as libpq
/// reads them, and `--store-ca-file`). The test server (scripts/pg-test-cluster) speaks TLS
/// only, with a certificate for 127.0.0.1 signed by an authority it makes; its URL says
/// `sslmode=verify-full` with that authority, so every PostgreSQL test runs over TLS.
@Suite("PostgreSQL store over TLS", .serialized, .timeLimit(.minutes(2)))
struct PostgresTLSTests {
    @Test func theModesAndTheRootCertificateAreReadAsLibpqReadsThem() throws {
        let plain = try PostgresStoreURL(parsing: "postgres://ada@db.example:5433/games")
        #expect(plain.tlsMode == .disable)
        #expect(plain.description == "postgres://ada@db.example:5433/games")
        for mode in PostgresStoreURL.TLSMode.allCases {
            let url = try PostgresStoreURL(parsing: "postgres://ada@db.example/games?sslmode=\(mode.rawValue)")
            #expect(url.tlsMode == mode)
        }
        let full = try PostgresStoreURL(parsing: "postgres://ada:pw@db.example/games?sslmode=verify-full&sslrootcert=/etc/ca%20file.pem")
        #expect(full.rootCertificateFile == "/etc/ca file.pem")
        #expect(full.description == "postgres://ada@db.example:5432/games?sslmode=verify-full&sslrootcert=/etc/ca%20file.pem")
        var again = try PostgresStoreURL(parsing: full.description)
        again.password = "pw"
        #expect(again == full, "the description reads back to the same store but for the password")
    }

    @Test func aModeOrCertificateThatCannotBeHonouredIsRefused() throws {
        #expect(throws: StoreURLError.self) { try PostgresStoreURL(parsing: "postgres://ada@db/games?sslmode=allow") }
        #expect(throws: StoreURLError.self) { try PostgresStoreURL(parsing: "postgres://ada@db/games?sslmode=verify-full&sslrootcert=") }
        #expect(throws: StoreURLError.self) { try PostgresStoreURL(parsing: "postgres://ada@db/games?sslrootcert=/ca.pem") }
        #expect(throws: StoreURLError.self) { try PostgresStoreURL(parsing: "postgres://ada@db/games?sslmode=prefer&sslrootcert=/ca.pem") }
        #expect(throws: StoreURLError.self) { try PostgresStoreURL(parsing: "postgres://ada@db/games?connect_timeout=3") }
        var plain = try PostgresStoreURL(parsing: "postgres://ada@db/games")
        #expect(throws: StoreURLError.self) { try plain.trust(rootCertificateFile: "/ca.pem") }
        var other = try PostgresStoreURL(parsing: "postgres://ada@db/games?sslmode=verify-ca&sslrootcert=/a.pem")
        #expect(throws: StoreURLError.self) { try other.trust(rootCertificateFile: "/b.pem") }
        var missing = try PostgresStoreURL(parsing: "postgres://ada@db/games?sslmode=verify-full")
        try missing.trust(rootCertificateFile: "/nonexistent/ca.pem")
        #expect(throws: StoreURLError.self) { try missing.tlsSettings() }
    }

    @Test func aPasswordNeverAppearsInAnError() async throws {
        let secret = "s3cret-Passw0rd"
        let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--store", "mysql://root:\(secret)@127.0.0.1/x"])
        #expect(status != 0)
        #expect(output.contains("cannot start: store URL mysql://root:redacted@127.0.0.1/x: the scheme must be postgres://"), "\(output)")
        let (unreachable, unreachableOutput) = try await ServerProcess.run([
            "serve", "--port", "0", "--log-level", "trace", "--store", "postgres://ada:\(secret)@127.0.0.1:1/x?sslmode=require",
        ])
        #expect(unreachable != 0)
        #expect(unreachableOutput.contains("cannot start: store postgres://ada@127.0.0.1:1/x?sslmode=require: cannot connect"), "\(unreachableOutput)")
        #expect(!output.contains(secret) && !unreachableOutput.contains(secret))
    }

    @Test func aCertificateFileThatCannotBeReadStopsTheStartWithItsReason() async throws {
        let (status, output) = try await ServerProcess.run([
            "serve", "--port", "0", "--store", "postgres://ada@127.0.0.1:1/x?sslmode=verify-full", "--store-ca-file", "/nonexistent/ca.pem",
        ])
        #expect(status != 0)
        let reason = output.split(separator: "\n").filter { $0.contains("cannot start") }
        #expect(reason.count == 1, "one line: \(output)")
        #expect(reason.first?.contains("cannot read the root certificate file /nonexistent/ca.pem") == true, "\(output)")
        let (withoutStore, withoutOutput) = try await ServerProcess.run(["serve", "--port", "0", "--store-ca-file", "/ca.pem"])
        #expect(withoutStore != 0)
        #expect(withoutOutput.contains("--store-ca-file needs --store"))
    }

    /// The node's own connection and its pool's are encrypted, and no password reaches the
    /// log (at trace level), `/metrics` or the health report.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func theNodesConnectionsAreEncryptedAndItsPasswordIsNeverShown() async throws {
        var url = try await TestPostgres.freshDatabase()
        try #require(url.tlsMode == .verifyFull, "the test server's URL asks for verify-full (scripts/pg-test-cluster)")
        // Trust authentication ignores the password; the node still holds it.
        url.password = "s3cret-Passw0rd"
        var typed = URLComponents(string: url.description)
        typed?.password = url.password
        let token = PersistenceTests.token
        let server = try await ServerProcess([
            "--store", try #require(typed?.string), "--node-id", "tls", "--log-level", "trace", "--moderator-token", token,
        ])
        let ada = TestClient.connect(port: server.port)
        try await ada.hello("Ada")
        let code = try await seat(ada, [])
        try await waitUntil { try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)'") == 1 }
        let sessions = """
            SELECT count(*) FILTER (WHERE s.ssl), count(*) FILTER (WHERE NOT s.ssl)
            FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
            WHERE a.datname = '\(url.database)' AND a.pid <> pg_backend_pid()
            """
        let encrypted = try await TestPostgres.integer(url, "SELECT e FROM (\(sessions)) AS c(e, p)") ?? 0
        let plain = try await TestPostgres.integer(url, "SELECT p FROM (\(sessions)) AS c(e, p)") ?? -1
        #expect(encrypted >= 2, "the node's identity connection and at least one pooled one")
        #expect(plain == 0)
        let metrics = try await HTTP.get(port: server.port, path: "/metrics").text
        let health = try await HTTP.get(port: server.port, path: "/api/health", token: token).text
        for (name, text) in [("the log", server.log), ("/metrics", metrics), ("/api/health", health)] {
            #expect(!text.contains("s3cret-Passw0rd"), "the password is in \(name)")
        }
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }

    /// `verify-full` against an authority that did not sign the server's certificate: the
    /// node refuses to start, in one line; `require` without an authority connects.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func aServerCertificateFromAnotherAuthorityIsRefused() async throws {
        var url = try await TestPostgres.freshDatabase()
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("other-ca-\(UInt32.random(in: 0...UInt32.max)).pem")
        try Self.otherAuthority.write(to: other, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: other) }
        url.rootCertificateFile = other.path
        let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--store", "\(url)", "--node-id", "impostor"])
        #expect(status != 0)
        let reason = output.split(separator: "\n").filter { $0.contains("cannot start") }
        #expect(reason.count == 1, "one line: \(output)")
        #expect(reason.first?.contains("cannot connect: TLS: the server's certificate is not signed by a trusted authority") == true, "\(output)")

        url.tlsMode = .require
        url.rootCertificateFile = nil
        let server = try await ServerProcess(["--store", "\(url)", "--node-id", "unverified"])
        #expect(try await HTTP.get(port: server.port, path: "/readyz").status == 200)
        server.signal(SIGTERM)
        #expect(await server.waitForExit(seconds: 15) == 0)
    }

    /// A self-signed authority of no use to anyone: its key was thrown away.
    static let otherAuthority = """
-----BEGIN CERTIFICATE-----
MIIDLTCCAhWgAwIBAgIUJgMqK38h3uvqb2BFGGdhh5GzWE4wDQYJKoZIhvcNAQEL
BQAwJTEjMCEGA1UEAwwabm90IHRoZSBkcmF3c2VydmVyIHRlc3QgQ0EwIBcNMjYx
MTI5MDAyMjIxWhgPMjEyNjExMDUwMDIyMjFaMCUxIzAhBgNVBAMMGm5vdCB0aGUg
ZHJhd3NlcnZlciB0ZXN0IENBMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKC
AQEAkGtzKwwgxH6hls4FE/6ln2VQAmTnVehNSLi6vg9AUmRmqNt/1wuiy4jOSLkb
KoElZA43E/icrTN4VD+lb9TDwwUgUeZXUoXl2MlX1sx5OAhEHxYGAjBv7tzlK1Vd
cZB2CkDN8Ifn9kwcvs5nf/OexQYYoC+je6s3InBH78FvtXDf5bSu+QhoH2bmBq65
KVCTbQh9dTJaZblhyoolsbqzMVIHkpiCZh/G2q9WapgtOiV0wQVbjV2mZP1ybNNw
Y/rpf05bG8idp/w5H8oZCbG4+R1dISIbdIDS+GiixY3+P9neTzVf8TOfpq+8I/Bs
zFN5CVrU1s5lZCsNYmdDyZ5aUQIDAQABo1MwUTAdBgNVHQ4EFgQUYetPEcOIwHwS
yWTXvLqpHEtmZj4wHwYDVR0jBBgwFoAUYetPEcOIwHwSyWTXvLqpHEtmZj4wDwYD
VR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAfHnhEQYZKOMTejHW7Cas
9E2bw9e2koR3CS96KUNsheL4ufCIIFeYQZemyZoSqn5oav3WQ+fJOsRU54DYjwr5
pZEa1DBfo2Xc0ZFVy9QXbKasFlxKtloyKFNGT0J5XO8eu5BjprwovJStYWgv+twx
Eb5sGU21CXDYqLHf2fZ6aXs7JO+dqPumaGlOLQ6k092+V7gANZB6Bm9G50LRgVN/
TAxLUcWCWU44iXGkErFcO9mFinJK5wpMJC2LVN9hBUi1QJhBbMJqkaO3G1Rx1Lxp
o3wq0+gh7J5G3A97SpnSILnQ0v9Q4x6EQF3+P09+Aol8+IDmPkBXU3u27MLlgzlP
5Q==
-----END CERTIFICATE-----

"""
}
