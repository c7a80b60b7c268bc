import Canvas
import DrawProtocol
import HTTPEdge
import Rooms

/// Everything `drawserver serve` can be told, with the protocol's defaults.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Folder of the browser client served at `/`; nil serves no static files.
    public var webRoot: String? = "web-static"
    /// Deterministic room codes, tokens and words (tests only: tokens become guessable).
    public var seed: UInt64?
    public var room = RoomConfiguration()
    public var limits = Limits()
    /// The SQLite file; nil keeps everything in memory (tests, tools).
    public var databasePath: String?
    var persistence = PersistenceWriter.Configuration()
    /// When the node counts as saturated and turns new rooms away (`AdmissionControl`).
    var admission = SaturationDetector.Configuration()
    /// Test only (`DRAWSERVER_TEST_PAGE_LIMIT_FILE`): see `GameDatabase.testPageLimitFile`.
    var testPageLimitFile: String?
    /// The shared store and this node's identity in it.
    public var cluster = Cluster()
    /// Bearer token for the moderator routes; nil answers 401 to everyone.
    public var moderatorToken: String?
    /// How long SIGTERM waits for clients to leave before the process exits.
    public var drainTimeout: Duration = .seconds(10)
    /// Event-loop threads; nil for one per CPU this process may run on (its affinity, so a
    /// server pinned with `taskset -c 0` runs one loop instead of one per machine core).
    public var eventLoopThreads: Int?
    /// How a busy loop reads its connections in small batches (`ReadPoller`); nil for NIO
    /// alone. `serve` sets it (`--read-batch`).
    var readPolling: ReadPoller.Configuration?
    /// Proxies whose `X-Forwarded-For` is believed (`--trusted-proxies`); none by default.
    var forwardedFor = ForwardedFor(trustedProxies: [])

    public init() {}

    /// Several nodes on one PostgreSQL store (`--store`, `--node-id`, `--advertise`).
    public struct Cluster: Sendable {
        /// `postgres://...`; nil keeps SQLite (`databasePath`).
        public var store: String?
        /// `--store-ca-file`: the store's `sslrootcert`.
        public var storeCAFile: String?
        /// Unique per running node; names the node in the store's leases.
        public var nodeID = "node"
        /// Where other nodes and the balancer reach this node.
        public var advertise: String?
        /// Room lease duration and renewal interval (`--lease-duration`, `--lease-renew`).
        var leases = LeaseKeeper.Configuration()
        public init() {}
    }

    /// Frame and queue limits (protocol section 1).
    public struct Limits: Sendable {
        public var maxTextFrameBytes = 4 * 1024
        public var maxBinaryFrameBytes = 64 * 1024
        /// Bytes that may wait in one connection's outbound queue before it is closed with 4008.
        public var outboundQueueBytes = 1 << 20
        public var helloTimeout: Duration = .seconds(10)
        /// HTTP request heads: their size and how long one may take (`--max-request-head`,
        /// `--header-timeout`).
        var requestHead = RequestHeadGuard.Configuration()
        /// How long a kept-alive HTTP connection may wait for its next request.
        public var httpIdleTimeout: Duration = .seconds(60)
        public var permessageDeflate = false
        /// Chat, guesses and ratings per connection; beyond it they wait (shaped), so a burst
        /// is judged late and never faster than this.
        public var chatRate = Rate(5, perMs: 3_000)
        /// Drawing frames per connection; beyond it the connection is read no faster.
        public var frameRate = Rate(120, perMs: 1_000)
        /// Drawing points per connection; a frame that overdraws it makes the next ones wait.
        public var pointRate = Rate(4_000, perMs: 1_000)
        /// `create`, `join` and `quickplay` per connection.
        public var joinRate = Rate(10, perMs: 60_000)
        /// Rooms created per client IP address.
        public var roomCreationsPerIP = Rate(30, perMs: 60_000)
        /// Open WebSocket connections per client IP address; 0 for no cap.
        public var maxConnectionsPerIP = 8
        /// New WebSocket connections per client IP address (a client that is closed for abuse
        /// and reconnects at once, over and over, meets this); not counted when
        /// `maxConnectionsPerIP` is 0.
        public var connectionsPerIPRate = Rate(60, perMs: 60_000)
        /// Addresses exempt from every per-address cap (connections, their rate, room
        /// creations): load generators, trusted gateways.
        public var unlimitedAddresses: Set<String> = []
        /// Text messages per connection, whatever their kind (chat, joins and invites also
        /// have their own budgets).
        public var messageRate = Rate(30, perMs: 1_000)
        /// Invitations per connection.
        public var inviteRate = Rate(10, perMs: 60_000)
        /// This many refusals (joins or invitations over budget, text that is not JSON or is
        /// oversized, invalid drawing frames) within `abuseWindow` close the connection with 1008.
        public var abuseStrikes = 30
        public var abuseWindow: Duration = .seconds(10)
        /// Time between server pings (zero: none), and how long an answer (any data) may take.
        public var pingInterval: Duration = .seconds(20)
        public var pingTimeout: Duration = .seconds(10)
        /// Origins allowed to open a WebSocket (exact `scheme://host[:port]`); nil allows any.
        public var allowedOrigins: Set<String>?
        /// Serve a plain echo WebSocket at `/conformance/echo` (for the Autobahn testsuite).
        public var conformanceEcho = false
        /// The largest message the conformance echo accepts.
        public var conformanceMaxMessageBytes = 16 << 20
        public init() {}
    }
}
