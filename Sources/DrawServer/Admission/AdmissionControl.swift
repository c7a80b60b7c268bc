import CoreMetrics
import DrawProtocol
import Logging
import NIOCore
import Rooms
import Synchronization

/// Admission control: every event loop's lag is measured continuously (a probe task that
/// notes how late it runs), and while `SaturationDetector` judges the node saturated, new
/// rooms, joins and quick plays are refused with `server_busy` and `/readyz` answers 503,
/// so a balancer sends new players elsewhere. Rooms already playing, and players resuming
/// their seats, are untouched.
final class AdmissionControl: Sendable {
    let configuration: SaturationDetector.Configuration
    private let detector: Mutex<SaturationDetector>
    private let saturated = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let clock: ServerClock
    private let metrics: ServerMetrics
    private let logger: Logger

    init(configuration: SaturationDetector.Configuration, clock: ServerClock, metrics: ServerMetrics, logger: Logger) {
        self.configuration = configuration
        self.detector = Mutex(SaturationDetector(configuration: configuration))
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    var isSaturated: Bool { saturated.load(ordering: .relaxed) }

    /// Starts a probe on every loop of `group`; they stop with `stop()` or with this object.
    func start(on group: any EventLoopGroup) {
        guard configuration.isEnabled, !running.exchange(true, ordering: .relaxed) else { return }
        for loop in group.makeIterator() { probe(loop) }
    }

    func stop() { running.store(false, ordering: .relaxed) }

    private func probe(_ loop: any EventLoop) {
        let due = NIODeadline.now() + TimeAmount(configuration.probeInterval)
        loop.scheduleTask(deadline: due) { [weak self] in
            guard let self, self.running.load(ordering: .relaxed) else { return }
            self.record(lagNanoseconds: (NIODeadline.now() - due).nanoseconds)
            self.probe(loop)
        }
    }

    /// One lag sample (also for tests that drive the detector through this owner).
    func record(lagNanoseconds: Int64) {
        metrics.eventLoopLag.recordNanoseconds(max(0, lagNanoseconds))
        let now = clock.now
        let (transition, smoothed) = detector.withLock { detector in
            (detector.sample(lagMs: Double(lagNanoseconds) / 1_000_000, now: now), detector.smoothedLagMs)
        }
        guard let transition else { return }
        saturated.store(transition == .engaged, ordering: .relaxed)
        metrics.saturated.record(transition == .engaged ? 1 : 0)
        let metadata: Logger.Metadata = ["smoothed lag ms": "\(Int(smoothed))", "threshold ms": "\(DurationText.milliseconds(configuration.lagThreshold))"]
        switch transition {
        case .engaged: logger.warning("saturated: refusing new rooms, joins and quick plays", metadata: metadata)
        case .released: logger.notice("no longer saturated: taking new rooms again", metadata: metadata)
        }
    }

    /// The answer to a `create`, `join` or `quickplay` while saturated; nil otherwise.
    func refusal(for message: String) -> ProtocolError? {
        guard isSaturated else { return nil }
        metrics.admissionRefusals(message)?.increment()
        var error = ProtocolError(.serverBusy, "this server is full right now; try again in a few seconds", ref: message)
        error.retryAfterMs = DurationText.milliseconds(configuration.releaseAfter)
        return error
    }
}
