import CoreMetrics
import DrawProtocol
import Prometheus
import Rooms

/// The server's Prometheus metrics, created once per application from its own registry
/// (no global metrics system), so tests can run several servers in one process.
///
/// A class, so handing it around copies no counters (a struct of them costs a retain each).
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let connections: CoreMetrics.Gauge
    let roomsByPhase: [GamePhase: CoreMetrics.Gauge]
    let players: CoreMetrics.Gauge
    let messagesIn: [String: CoreMetrics.Counter]
    let bytesIn: [String: CoreMetrics.Counter]
    let messagesOut: [String: CoreMetrics.Counter]
    let bytesOut: [String: CoreMetrics.Counter]
    let relayLatency: CoreMetrics.Timer
    let queueOverflows: CoreMetrics.Counter
    let rateLimited: CoreMetrics.Counter
    /// Messages held back until their connection's budget refilled (shaped, not refused).
    let messagesDelayed: CoreMetrics.Counter
    /// Socket reads made by the loops' pollers of busy connections (`ReadPoller`).
    let polledReads: CoreMetrics.Counter
    let dbBatchChanges: CoreMetrics.Recorder
    let dbCommitTime: CoreMetrics.Timer
    let dbStrokeFrames: CoreMetrics.Counter
    /// How late each event loop's probe task ran (admission control's input).
    let eventLoopLag: CoreMetrics.Timer
    /// 1 while admission control judges the node saturated.
    let saturated: CoreMetrics.Gauge
    private let refusedWhileSaturated: [String: CoreMetrics.Counter]
    /// Commits that failed, each retry counted (docs/PERSISTENCE.md, "Storage faults").
    let dbCommitFailures: CoreMetrics.Counter
    /// Bytes of changes held for retry because commits fail; 0 while they go through.
    let dbQueuedBytes: CoreMetrics.Gauge
    /// 1 while the store cannot commit (`/readyz` says `storage failing`), else 0.
    let storageFailing: CoreMetrics.Gauge
    /// Rooms this node took over from a node that was gone: a failover (several nodes).
    let roomsTakenOver: CoreMetrics.Counter
    /// Rooms this node stopped running because another node took them or its lease lapsed.
    let roomsLost: CoreMetrics.Counter
    /// Live nodes in the store's directory, this one included (several nodes).
    let clusterNodes: CoreMetrics.Gauge
    /// The `binary` counters of the four families above, looked up once: drawing frames
    /// count them on the hot path.
    private let binaryIn: (messages: CoreMetrics.Counter?, bytes: CoreMetrics.Counter?)
    private let binaryOut: (messages: CoreMetrics.Counter?, bytes: CoreMetrics.Counter?)

    /// Inbound kinds: every client message type, `binary`, and `invalid` for text that did not decode.
    static let inboundKinds = ["hello", "rooms", "create", "join", "quickplay", "leave", "invite", "settings", "ready", "start",
                               "kick", "votekick", "spectate", "chat", "guess", "choose", "skip", "binary", "invalid"]
    static let outboundKinds = ["welcome", "error", "rooms", "room", "joined", "left", "ready", "chat", "choosing", "choose",
                                "turn", "hint", "close", "guessed", "turnEnd", "gameEnd", "invited", "kicked", "closed",
                                "canvas", "votekick", "binary"]

    init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["drawserver_relay_latency_seconds"] = [
            .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
            .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100),
        ]
        factory.durationHistogramBuckets["drawserver_event_loop_lag_seconds"] = [
            .microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1),
        ]
        factory.valueHistogramBuckets["drawserver_db_batch_changes"] = [1, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000]
        connections = CoreMetrics.Gauge(label: "drawserver_connections", dimensions: [], factory: factory)
        players = CoreMetrics.Gauge(label: "drawserver_players_online", dimensions: [], factory: factory)
        roomsByPhase = Dictionary(uniqueKeysWithValues: GamePhase.allCases.map {
            ($0, CoreMetrics.Gauge(label: "drawserver_rooms", dimensions: [("phase", $0.rawValue)], factory: factory))
        })
        func counters(_ label: String, _ kinds: [String]) -> [String: CoreMetrics.Counter] {
            Dictionary(uniqueKeysWithValues: kinds.map { ($0, CoreMetrics.Counter(label: label, dimensions: [("kind", $0)], factory: factory)) })
        }
        messagesIn = counters("drawserver_messages_in_total", Self.inboundKinds)
        bytesIn = counters("drawserver_bytes_in_total", Self.inboundKinds)
        messagesOut = counters("drawserver_messages_out_total", Self.outboundKinds)
        bytesOut = counters("drawserver_bytes_out_total", Self.outboundKinds)
        relayLatency = CoreMetrics.Timer(label: "drawserver_relay_latency_seconds", dimensions: [], factory: factory)
        queueOverflows = CoreMetrics.Counter(label: "drawserver_queue_overflows_total", dimensions: [], factory: factory)
        rateLimited = CoreMetrics.Counter(label: "drawserver_rate_limited_total", dimensions: [], factory: factory)
        messagesDelayed = CoreMetrics.Counter(label: "drawserver_messages_delayed_total", dimensions: [], factory: factory)
        polledReads = CoreMetrics.Counter(label: "drawserver_polled_reads_total", dimensions: [], factory: factory)
        dbBatchChanges = CoreMetrics.Recorder(label: "drawserver_db_batch_changes", dimensions: [], aggregate: true, factory: factory)
        dbCommitTime = CoreMetrics.Timer(label: "drawserver_db_commit_seconds", dimensions: [], factory: factory)
        dbStrokeFrames = CoreMetrics.Counter(label: "drawserver_db_stroke_frames_total", dimensions: [], factory: factory)
        eventLoopLag = CoreMetrics.Timer(label: "drawserver_event_loop_lag_seconds", dimensions: [], factory: factory)
        saturated = CoreMetrics.Gauge(label: "drawserver_saturated", dimensions: [], factory: factory)
        refusedWhileSaturated = Dictionary(uniqueKeysWithValues: ["create", "join", "quickplay"].map {
            ($0, CoreMetrics.Counter(label: "drawserver_admission_refusals_total", dimensions: [("reason", "saturated"), ("message", $0)], factory: factory))
        })
        dbCommitFailures = CoreMetrics.Counter(label: "drawserver_db_commit_failures_total", dimensions: [], factory: factory)
        dbQueuedBytes = CoreMetrics.Gauge(label: "drawserver_db_queued_bytes", dimensions: [], factory: factory)
        storageFailing = CoreMetrics.Gauge(label: "drawserver_storage_failing", dimensions: [], factory: factory)
        roomsTakenOver = CoreMetrics.Counter(label: "drawserver_rooms_taken_over_total", dimensions: [], factory: factory)
        roomsLost = CoreMetrics.Counter(label: "drawserver_rooms_lost_total", dimensions: [], factory: factory)
        clusterNodes = CoreMetrics.Gauge(label: "drawserver_cluster_nodes", dimensions: [], factory: factory)
        clusterNodes.record(1)
        binaryIn = (messagesIn["binary"], bytesIn["binary"])
        binaryOut = (messagesOut["binary"], bytesOut["binary"])
    }

    /// The counter of messages refused while saturated, by the message's type.
    func admissionRefusals(_ message: String) -> CoreMetrics.Counter? {
        refusedWhileSaturated[message]
    }

    func receivedBinary(bytes: Int) {
        binaryIn.messages?.increment()
        binaryIn.bytes?.increment(by: bytes)
    }

    func sentBinary(bytes: Int, count: Int) {
        guard count > 0 else { return }
        binaryOut.messages?.increment(by: count)
        binaryOut.bytes?.increment(by: bytes * count)
    }

    func received(_ kind: String, bytes: Int) {
        let key = messagesIn[kind] == nil ? "invalid" : kind
        messagesIn[key]?.increment()
        bytesIn[key]?.increment(by: bytes)
    }

    func sent(_ kind: String, bytes: Int, count: Int = 1) {
        guard count > 0 else { return }
        messagesOut[kind]?.increment(by: count)
        bytesOut[kind]?.increment(by: bytes * count)
    }

    /// The Prometheus text exposition.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
