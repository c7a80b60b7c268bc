import ArgumentParser
import Canvas
import DrawProtocol
import Foundation
import HTTPEdge
import Hummingbird
import Logging
import Rooms
import ServiceLifecycle
import UnixSignals

/// `drawserver serve`: runs the game server.
package struct ServeCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the game server (HTTP, WebSocket at /ws, the browser client at /)."
    )

    /// Sockets a busy loop reads at a time (`ReadPoller`): NIO's own first batch size, so a
    /// loop that never had more ready at once never polls.
    static let defaultReadBatch = 64

    @Option(help: "Address to listen on (env DRAWSERVER_HOST).")
    var host: String?
    @Option(help: "Port to listen on (env DRAWSERVER_PORT).")
    var port: Int?
    @Option(help: "Folder of the browser client served at / (env DRAWSERVER_WEB_ROOT; default: web-static in the working directory or near the executable).")
    var webRoot: String?
    @Option(help: "Canvas size as WIDTHxHEIGHT (env DRAWSERVER_CANVAS).")
    var canvas: String?
    @Option(help: "Seed for deterministic room codes, tokens and words; for tests only (env DRAWSERVER_SEED).")
    var seed: UInt64?
    // Durations: a number and a unit (250ms, 2s, 5m; README, "Durations"); a bare number is
    // in the unit of the older flag name, which still works.
    @Option(name: [.customLong("choose-time"), .customLong("choose-seconds")], help: "How long a drawer has to choose a word, e.g. 15s (env DRAWSERVER_CHOOSE_SECONDS).", transform: DurationFlag.seconds)
    var chooseTime: Duration?
    @Option(name: [.customLong("draw-time"), .customLong("draw-seconds")], help: "How long every drawing turn lasts, overriding the rooms' drawTimeSec; for tests and demos (env DRAWSERVER_DRAW_SECONDS).", transform: DurationFlag.seconds)
    var drawTime: Duration?
    @Option(name: [.customLong("turn-end-time"), .customLong("turn-end-seconds")], help: "How long the turn-end reveal lasts (env DRAWSERVER_TURN_END_SECONDS).", transform: DurationFlag.seconds)
    var turnEndTime: Duration?
    @Option(name: [.customLong("game-end-time"), .customLong("game-end-seconds")], help: "How long the game-end podium lasts (env DRAWSERVER_GAME_END_SECONDS).", transform: DurationFlag.seconds)
    var gameEndTime: Duration?
    @Option(name: [.customLong("next-game-time"), .customLong("next-game-seconds")], help: "After a game, the lobby's countdown to the next one; 0 for none (env DRAWSERVER_NEXT_GAME_SECONDS).", transform: DurationFlag.seconds)
    var nextGameTime: Duration?
    @Option(name: [.customLong("grace"), .customLong("grace-seconds")], help: "How long a disconnected player keeps its seat, e.g. 60s (env DRAWSERVER_GRACE_SECONDS).", transform: DurationFlag.seconds)
    var grace: Duration?
    @Option(help: "Bytes one connection may have queued before it is closed with 4008 (env DRAWSERVER_OUTBOUND_QUEUE_BYTES).")
    var outboundQueueBytes: Int?
    @Flag(inversion: .prefixedEnableDisable, help: "Negotiate permessage-deflate (env DRAWSERVER_PERMESSAGE_DEFLATE=1).")
    var permessageDeflate: Bool?
    @Option(help: "SQLite database file, created if missing (env DRAWSERVER_DB; default drawserver.sqlite).")
    var db: String?
    @Option(help: "Shared store instead of SQLite: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=disable|prefer|require|verify-ca|verify-full]; several nodes may share one (env DRAWSERVER_STORE; default: the SQLite file of --db).")
    var store: String?
    @Option(help: "PEM file of the authorities trusted for the store's TLS certificate, as sslrootcert in the --store URL (env DRAWSERVER_STORE_CA_FILE; default: the system's).")
    var storeCaFile: String?
    @Option(help: "This node's name in the shared store; unique per running node (env DRAWSERVER_NODE_ID; default: the host name).")
    var nodeId: String?
    @Option(help: "The URL other nodes and the balancer reach this node at, e.g. http://10.0.0.5:8080 (env DRAWSERVER_ADVERTISE; default http://HOST:PORT).")
    var advertise: String?
    @Option(help: "How long a room's lease lasts without renewal, e.g. 3s or 2500ms: a killed node's rooms resume elsewhere within about this plus 0.5 s (env DRAWSERVER_LEASE_DURATION; default 3s).")
    var leaseDuration: String?
    @Option(help: "How often held room leases are renewed; at most half of the lease duration less 0.5 s (env DRAWSERVER_LEASE_RENEW; default 1s).")
    var leaseRenew: String?
    @Option(help: "Bearer token for the moderator HTTP API; without one those routes answer 401 (env DRAWSERVER_MODERATOR_TOKEN).")
    var moderatorToken: String?
    @Option(name: [.customLong("drain-timeout"), .customLong("drain-timeout-seconds")], help: "How long SIGTERM waits for clients to leave before exiting (env DRAWSERVER_DRAIN_TIMEOUT_SECONDS; default 10s).", transform: DurationFlag.seconds)
    var drainTimeout: Duration?
    @Option(help: "Finished turns (with their stroke logs) kept in the database (env DRAWSERVER_TURN_RETENTION; default 5000).")
    var turnRetention: Int?
    @Option(help: "Bytes of changes held in memory while storage fails before drawing history is collapsed and new rooms are refused (env DRAWSERVER_STORAGE_QUEUE_BYTES; default 67108864).")
    var storageQueueBytes: Int?
    @Option(help: "Open WebSocket connections per client IP address; 0 for no per-address connection limits at all, count or rate, as load tests on loopback need (env DRAWSERVER_MAX_CONNECTIONS_PER_IP; default 8).")
    var maxConnectionsPerIp: Int?
    @Option(help: "Comma-separated origins (scheme://host[:port]) allowed to open a WebSocket; others get 403 (env DRAWSERVER_ALLOWED_ORIGINS; default any).")
    var allowedOrigins: String?
    @Option(name: [.customLong("ping-interval"), .customLong("ping-interval-seconds")], help: "Time between heartbeat pings, 0 to disable (env DRAWSERVER_PING_INTERVAL_SECONDS; default 20s).", transform: DurationFlag.seconds)
    var pingInterval: Duration?
    @Option(name: [.customLong("ping-timeout"), .customLong("ping-timeout-seconds")], help: "How long a client has to answer a ping before it is cut off (env DRAWSERVER_PING_TIMEOUT_SECONDS; default 10s).", transform: DurationFlag.seconds)
    var pingTimeout: Duration?
    @Option(name: [.customLong("saturation-lag"), .customLong("saturation-lag-ms")], help: "Smoothed event-loop lag that counts as saturated, 0 to turn admission control off; a bare number is in ms (env DRAWSERVER_SATURATION_LAG_MS; default 50ms).", transform: DurationFlag.milliseconds)
    var saturationLag: Duration?
    @Option(name: [.customLong("saturation-time"), .customLong("saturation-seconds")], help: "How long the lag must stay above it before new rooms, joins and quick plays are refused (env DRAWSERVER_SATURATION_SECONDS; default 3s).", transform: DurationFlag.seconds)
    var saturationTime: Duration?
    @Option(name: [.customLong("saturation-release"), .customLong("saturation-release-seconds")], help: "How long the lag must stay below half of it before they are taken again (env DRAWSERVER_SATURATION_RELEASE_SECONDS; default 5s).", transform: DurationFlag.seconds)
    var saturationRelease: Duration?
    @Option(help: "Largest HTTP request line and headers, in bytes; a larger head is answered 431 (env DRAWSERVER_MAX_REQUEST_HEAD; default 16384).")
    var maxRequestHead: Int?
    @Option(help: "How long an HTTP request head may take to arrive, from its first byte or the connection's start; a late one is answered 408 and closed (env DRAWSERVER_HEADER_TIMEOUT; default 5s).", transform: DurationFlag.seconds)
    var headerTimeout: Duration?
    @Option(help: "How long a kept-alive HTTP connection may sit idle between requests (env DRAWSERVER_HTTP_IDLE_TIMEOUT; default 60s).", transform: DurationFlag.seconds)
    var httpIdleTimeout: Duration?
    @Option(help: "Chat and guesses per connection, N/Ts (env DRAWSERVER_CHAT_RATE; default 5/3s).")
    var chatRate: String?
    @Option(help: "Drawing frames per connection (env DRAWSERVER_FRAME_RATE; default 120/1s).")
    var frameRate: String?
    @Option(help: "Drawing points per connection (env DRAWSERVER_POINT_RATE; default 4000/1s).")
    var pointRate: String?
    @Option(help: "Room creations and joins per connection (env DRAWSERVER_JOIN_RATE; default 10/60s).")
    var joinRate: String?
    @Option(help: "Room creations per client IP address (env DRAWSERVER_IP_ROOM_RATE; default 30/60s).")
    var ipRoomRate: String?
    @Option(help: "New WebSocket connections per client IP address; more get 429 (env DRAWSERVER_IP_CONNECTION_RATE; default 60/60s).")
    var ipConnectionRate: String?
    @Option(help: "Text messages of any kind per connection (env DRAWSERVER_MESSAGE_RATE; default 30/1s).")
    var messageRate: String?
    @Option(help: "Invitations per connection (env DRAWSERVER_INVITE_RATE; default 10/60s).")
    var inviteRate: String?
    @Option(help: "Comma-separated client addresses exempt from every per-address cap, e.g. a load generator's (env DRAWSERVER_UNLIMITED_ADDRESSES).")
    var unlimitedAddresses: String?
    @Option(help: "Comma-separated proxy addresses (e.g. HAProxy's) whose X-Forwarded-For names the client for per-address limits; from anyone else the header is ignored (env DRAWSERVER_TRUSTED_PROXIES; default none).")
    var trustedProxies: String?
    @Option(help: "Event-loop threads (env DRAWSERVER_THREADS; default: one per CPU this process may run on).")
    var threads: Int?
    @Option(help: "Sockets a busy event loop reads at a time, oldest input first, once one of its turns has read more than this many; 0 leaves all reading to NIO, which takes every ready socket in one batch (env DRAWSERVER_READ_BATCH; default 64).")
    var readBatch: Int?
    @Flag(help: "Serve a plain echo WebSocket at /conformance/echo for the Autobahn testsuite (env DRAWSERVER_CONFORMANCE_ECHO=1).")
    var conformanceEcho = false
    @Flag(help: "Keep nothing, in no database: a throwaway server (a demo, a load test, or a benchmark of what persistence costs). A restart loses every room and player.")
    var noPersistence = false
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env DRAWSERVER_LOG_LEVEL).")
    var logLevel: String?

    package func run() async throws {
        let env = Environment()
        var configuration = ServerConfiguration()
        configuration.host = host ?? env.string("DRAWSERVER_HOST") ?? configuration.host
        configuration.port = try port ?? env.int("DRAWSERVER_PORT") ?? configuration.port
        let explicitWebRoot = webRoot ?? env.string("DRAWSERVER_WEB_ROOT")
        configuration.webRoot = explicitWebRoot ?? WebRootLocator.locate() ?? configuration.webRoot
        configuration.seed = try seed ?? env.uint64("DRAWSERVER_SEED")
        if let text = canvas ?? env.string("DRAWSERVER_CANVAS") {
            guard let size = CanvasSize(parsing: text) else {
                throw ValidationError("--canvas must look like 800x600 (each side 16 to 4096)")
            }
            configuration.room.canvas = size
        }
        // The game core counts its clock in milliseconds.
        let hour = Duration.seconds(3600)
        configuration.room.chooseMs = try DurationFlag.check(chooseTime ?? env.duration("DRAWSERVER_CHOOSE_SECONDS", .seconds), "choose-time", .zero...hour).map(DurationText.milliseconds) ?? configuration.room.chooseMs
        if let draw = try DurationFlag.check(drawTime ?? env.duration("DRAWSERVER_DRAW_SECONDS", .seconds), "draw-time", .seconds(1)...hour) {
            configuration.room.drawMs = DurationText.milliseconds(draw)
        }
        configuration.room.turnEndMs = try DurationFlag.check(turnEndTime ?? env.duration("DRAWSERVER_TURN_END_SECONDS", .seconds), "turn-end-time", .zero...hour).map(DurationText.milliseconds) ?? configuration.room.turnEndMs
        configuration.room.gameEndMs = try DurationFlag.check(gameEndTime ?? env.duration("DRAWSERVER_GAME_END_SECONDS", .seconds), "game-end-time", .zero...hour).map(DurationText.milliseconds) ?? configuration.room.gameEndMs
        configuration.room.nextGameMs = try DurationFlag.check(nextGameTime ?? env.duration("DRAWSERVER_NEXT_GAME_SECONDS", .seconds), "next-game-time", .zero...hour).map(DurationText.milliseconds) ?? configuration.room.nextGameMs
        configuration.room.graceMs = try DurationFlag.check(grace ?? env.duration("DRAWSERVER_GRACE_SECONDS", .seconds), "grace", .zero...hour).map(DurationText.milliseconds) ?? configuration.room.graceMs
        if let bytes = try outboundQueueBytes ?? env.int("DRAWSERVER_OUTBOUND_QUEUE_BYTES") {
            guard bytes >= 64 * 1024 else { throw ValidationError("--outbound-queue-bytes must be at least 65536") }
            configuration.limits.outboundQueueBytes = bytes
        }
        configuration.limits.permessageDeflate = permessageDeflate ?? env.bool("DRAWSERVER_PERMESSAGE_DEFLATE") ?? false
        configuration.limits.conformanceEcho = conformanceEcho || env.bool("DRAWSERVER_CONFORMANCE_ECHO") == true

        if let count = try threads ?? env.int("DRAWSERVER_THREADS") {
            guard (1...256).contains(count) else { throw ValidationError("--threads must be 1...256") }
            configuration.eventLoopThreads = count
        }
        let batch = try readBatch ?? env.int("DRAWSERVER_READ_BATCH") ?? Self.defaultReadBatch
        guard (0...4096).contains(batch) else { throw ValidationError("--read-batch must be 0...4096") }
        if batch > 0 {
            var polling = ReadPoller.Configuration()
            polling.batch = batch
            polling.pollAfterReads = batch
            polling.busyReady = max(1, batch / 2)
            configuration.readPolling = polling
        }
        try applyLimits(to: &configuration.limits, env: env)
        if let list = trustedProxies ?? env.string("DRAWSERVER_TRUSTED_PROXIES") {
            let proxies = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let bad = proxies.first(where: { !ForwardedFor.isIPAddress($0) }) {
                throw ValidationError("--trusted-proxies takes IP addresses, not \(bad)")
            }
            configuration.forwardedFor = ForwardedFor(trustedProxies: Set(proxies))
        }
        try applyAdmission(to: &configuration.admission, env: env)
        configuration.databasePath = db ?? env.string("DRAWSERVER_DB") ?? "drawserver.sqlite"
        configuration.cluster.store = store ?? env.string("DRAWSERVER_STORE")
        configuration.cluster.storeCAFile = storeCaFile ?? env.string("DRAWSERVER_STORE_CA_FILE")
        if configuration.cluster.storeCAFile != nil, configuration.cluster.store == nil {
            throw ValidationError("--store-ca-file needs --store")
        }
        if noPersistence {
            guard configuration.cluster.store == nil else { throw ValidationError("--no-persistence and --store exclude each other") }
            guard db == nil else { throw ValidationError("--no-persistence and --db exclude each other") }
            configuration.databasePath = nil
        }
        // Without one: http://HOST:PORT with the port actually bound (`--port 0`), set once
        // the server listens (`DrawServerRuntime.serverListening`).
        configuration.cluster.advertise = advertise ?? env.string("DRAWSERVER_ADVERTISE")
        if let url = configuration.cluster.advertise, !NodeForwarder.isNodeURL(url) {
            throw ValidationError("--advertise must be http://HOST[:PORT] or https://HOST[:PORT], not \(url)")
        }
        if let id = nodeId ?? env.string("DRAWSERVER_NODE_ID") {
            guard Self.isNodeID(id) else { throw ValidationError("--node-id must be 1 to 64 letters, digits, '.', '-' or '_'") }
            configuration.cluster.nodeID = id
        } else {
            configuration.cluster.nodeID = Self.defaultNodeID(hostName: ProcessInfo.processInfo.hostName)
        }
        configuration.cluster.leases = try Self.leaseConfiguration(duration: leaseDuration ?? env.string("DRAWSERVER_LEASE_DURATION"), renew: leaseRenew ?? env.string("DRAWSERVER_LEASE_RENEW"))
        configuration.moderatorToken = moderatorToken ?? env.string("DRAWSERVER_MODERATOR_TOKEN")
        if let timeout = try DurationFlag.check(drainTimeout ?? env.duration("DRAWSERVER_DRAIN_TIMEOUT_SECONDS", .seconds), "drain-timeout", .zero ... .seconds(600)) {
            configuration.drainTimeout = timeout
        }
        if let turns = try turnRetention ?? env.int("DRAWSERVER_TURN_RETENTION") {
            guard turns >= 0 else { throw ValidationError("--turn-retention must be 0 or more") }
            configuration.persistence.turnRetention = turns
        }
        if let bytes = try storageQueueBytes ?? env.int("DRAWSERVER_STORAGE_QUEUE_BYTES") {
            guard bytes >= 64 << 10 else { throw ValidationError("--storage-queue-bytes must be at least 65536") }
            configuration.persistence.health.heldBytesLimit = bytes
        }
        // Test only, undocumented in --help: a file whose page count caps the database (a
        // full disk without root); see docs/PERSISTENCE.md.
        configuration.testPageLimitFile = env.string("DRAWSERVER_TEST_PAGE_LIMIT_FILE")

        var logger = Logger(label: "drawserver")
        let level = logLevel ?? env.string("DRAWSERVER_LOG_LEVEL") ?? "info"
        guard let parsed = Logger.Level(rawValue: level) else { throw ValidationError("unknown log level \(level)") }
        logger.logLevel = parsed

        if let root = configuration.webRoot, !WebRootLocator.hasClient(root) {
            logger.warning("no browser client found (no index.html in \(root)): GET / will answer 404; pass --web-root PATH to the web-static folder")
        }
        guard WordList.hasBuiltInList else {
            logger.critical("cannot start: a word list is missing; keep the drawserver_Rooms.resources folder next to the drawserver binary")
            throw ExitCode(2)
        }
        var postgres: PostgresGameStore?
        if let text = configuration.cluster.store {
            do {
                var url = try PostgresStoreURL(parsing: text)
                if let file = configuration.cluster.storeCAFile { try url.trust(rootCertificateFile: file) }
                var storeConfiguration = PostgresGameStore.Configuration()
                storeConfiguration.turnRetention = configuration.persistence.turnRetention
                storeConfiguration.leases = configuration.cluster.leases
                // Tests only: holds the directory back so a room it has not listed yet can be
                // asked for on purpose.
                if let ms = try env.int("DRAWSERVER_TEST_DIRECTORY_INTERVAL_MS") {
                    storeConfiguration.directoryInterval = .milliseconds(ms)
                }
                postgres = try await PostgresGameStore.open(url: url, nodeID: configuration.cluster.nodeID, configuration: storeConfiguration, logger: logger)
            } catch let error as StoreURLError {
                logger.critical("cannot start: \(error)")
                throw ExitCode(2)
            } catch let error as StoreOpenError {
                logger.critical("cannot start: \(error)")
                throw ExitCode(2)
            }
        }
        let runtime: DrawServerRuntime
        do {
            runtime = try DrawServerRuntime(configuration: configuration, logger: logger, postgres: postgres)
        } catch let error as DatabaseOpenError {
            logger.critical("cannot start: \(error)")
            throw ExitCode(2)
        }
        let app = buildApplication(runtime: runtime)
        // Graceful shutdown runs in reverse order: the lifecycle drains (1012 to every
        // client) while the HTTP server still runs, then the server stops, then the
        // writer commits what is left, then the PostgreSQL store releases the leases of
        // the rooms written.
        let writers: [any Service] = (runtime.postgres.map { [$0] } ?? []) + (runtime.writer.map { [$0] } ?? [])
        let services: [any Service] = writers + [app, LifecycleService(runtime: runtime)]
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }

    private func applyLimits(to limits: inout ServerConfiguration.Limits, env: Environment) throws {
        if let cap = try maxConnectionsPerIp ?? env.int("DRAWSERVER_MAX_CONNECTIONS_PER_IP") {
            guard cap >= 0 else { throw ValidationError("--max-connections-per-ip must be 0 or more") }
            limits.maxConnectionsPerIP = cap
        }
        if let list = allowedOrigins ?? env.string("DRAWSERVER_ALLOWED_ORIGINS") {
            let origins = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !origins.isEmpty else { throw ValidationError("--allowed-origins needs at least one origin") }
            limits.allowedOrigins = Set(origins)
        }
        if let interval = try DurationFlag.check(pingInterval ?? env.duration("DRAWSERVER_PING_INTERVAL_SECONDS", .seconds), "ping-interval", .zero ... .seconds(3600)) {
            limits.pingInterval = interval
        }
        if let timeout = try DurationFlag.check(pingTimeout ?? env.duration("DRAWSERVER_PING_TIMEOUT_SECONDS", .seconds), "ping-timeout", .milliseconds(100) ... .seconds(3600)) {
            limits.pingTimeout = timeout
        }
        if let bytes = try maxRequestHead ?? env.int("DRAWSERVER_MAX_REQUEST_HEAD") {
            // Below 1 KiB a browser's ordinary request (cookies, user agent) would not fit.
            guard (1024 ... 1 << 20).contains(bytes) else { throw ValidationError("--max-request-head must be 1024 to 1048576 bytes") }
            limits.requestHead.maxHeadBytes = bytes
        }
        if let timeout = try DurationFlag.check(headerTimeout ?? env.duration("DRAWSERVER_HEADER_TIMEOUT", .seconds), "header-timeout", .milliseconds(100) ... .seconds(600)) {
            limits.requestHead.headerTimeout = timeout
        }
        if let timeout = try DurationFlag.check(httpIdleTimeout ?? env.duration("DRAWSERVER_HTTP_IDLE_TIMEOUT", .seconds), "http-idle-timeout", .seconds(1) ... .seconds(3600)) {
            limits.httpIdleTimeout = timeout
        }
        func rate(_ flag: String?, _ key: String, _ name: String, _ current: Rate) throws -> Rate {
            guard let text = flag ?? env.string(key) else { return current }
            guard let parsed = Rate(parsing: text) else { throw ValidationError("--\(name) must look like 5/3s or 120/1s, not \(text)") }
            return parsed
        }
        limits.chatRate = try rate(chatRate, "DRAWSERVER_CHAT_RATE", "chat-rate", limits.chatRate)
        limits.frameRate = try rate(frameRate, "DRAWSERVER_FRAME_RATE", "frame-rate", limits.frameRate)
        limits.pointRate = try rate(pointRate, "DRAWSERVER_POINT_RATE", "point-rate", limits.pointRate)
        limits.joinRate = try rate(joinRate, "DRAWSERVER_JOIN_RATE", "join-rate", limits.joinRate)
        limits.roomCreationsPerIP = try rate(ipRoomRate, "DRAWSERVER_IP_ROOM_RATE", "ip-room-rate", limits.roomCreationsPerIP)
        limits.connectionsPerIPRate = try rate(ipConnectionRate, "DRAWSERVER_IP_CONNECTION_RATE", "ip-connection-rate", limits.connectionsPerIPRate)
        limits.messageRate = try rate(messageRate, "DRAWSERVER_MESSAGE_RATE", "message-rate", limits.messageRate)
        limits.inviteRate = try rate(inviteRate, "DRAWSERVER_INVITE_RATE", "invite-rate", limits.inviteRate)
        if let list = unlimitedAddresses ?? env.string("DRAWSERVER_UNLIMITED_ADDRESSES") {
            limits.unlimitedAddresses = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
    }

    /// The lease flags, checked for fencing safety (`LeaseKeeper.Configuration.problem`).
    static func leaseConfiguration(duration: String?, renew: String?) throws -> LeaseKeeper.Configuration {
        var leases = LeaseKeeper.Configuration()
        if let duration {
            guard let value = LeaseKeeper.duration(parsing: duration) else { throw ValidationError("--lease-duration must look like 3s or 2500ms, not \(duration)") }
            leases.duration = value
        }
        if let renew {
            guard let value = LeaseKeeper.duration(parsing: renew) else { throw ValidationError("--lease-renew must look like 1s or 800ms, not \(renew)") }
            leases.renewAfter = value
        }
        if let problem = leases.problem { throw ValidationError("--lease-duration/--lease-renew: \(problem)") }
        return leases
    }

    static func isNodeID(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy(isNodeIDCharacter)
    }

    private static func isNodeIDCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "._-".contains(c))
    }

    /// The host name, kept to what a node id may hold ("node" when nothing is left).
    static func defaultNodeID(hostName: String) -> String {
        let kept = String(hostName.filter(isNodeIDCharacter).prefix(64))
        return kept.isEmpty ? "node" : kept
    }

}

/// Reads `DRAWSERVER_*` settings from the process environment.
struct Environment {
    let values = ProcessInfo.processInfo.environment

    func string(_ key: String) -> String? {
        guard let value = values[key], !value.isEmpty else { return nil }
        return value
    }

    func int(_ key: String) throws -> Int? {
        guard let text = string(key) else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(key) must be an integer, not \(text)") }
        return value
    }

    /// A duration as a flag takes it (`2s`, `250ms`); a bare number is in `bareUnit`, the
    /// unit the variable's name says.
    func duration(_ key: String, _ bareUnit: DurationText.Unit) throws -> Duration? {
        guard let text = string(key) else { return nil }
        guard let value = DurationText.parse(text, bareUnit: bareUnit) else { throw ValidationError("\(key) must be a duration such as 2s or 250ms, not \(text)") }
        return value
    }

    func uint64(_ key: String) throws -> UInt64? {
        guard let text = string(key) else { return nil }
        guard let value = UInt64(text) else { throw ValidationError("\(key) must be an unsigned integer, not \(text)") }
        return value
    }

    func bool(_ key: String) -> Bool? {
        string(key).map { ["1", "true", "yes", "on"].contains($0.lowercased()) }
    }
}
