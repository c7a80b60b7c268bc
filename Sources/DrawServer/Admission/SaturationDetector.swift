import DrawProtocol
import Rooms

/// Whether the node is saturated, judged from event-loop lag samples: a pure state machine
/// (samples and the time in, transitions out), so admission control is tested on virtual
/// time.
///
/// The lag is smoothed (an exponential moving average), so one slow tick (a turn end, a
/// compaction) does not count. Saturation engages once the smoothed lag stays above
/// `lagThreshold` for `engageAfter`, and releases once it stays below half of that for
/// `releaseAfter`: the gap keeps the node from flapping at the threshold.
struct SaturationDetector: Sendable, Equatable {
    struct Configuration: Sendable, Equatable {
        /// Smoothed event-loop lag that counts as saturated; 0 turns admission control off.
        var lagThreshold: Duration = .milliseconds(50)
        var engageAfter: Duration = .seconds(3)
        var releaseAfter: Duration = .seconds(5)
        /// Weight of each new sample in the average (samples come every `probeInterval`).
        var smoothing = 0.2
        var probeInterval: Duration = .milliseconds(100)

        var isEnabled: Bool { lagThreshold > .zero }
    }

    enum Transition: Equatable {
        case engaged
        case released
    }

    let configuration: Configuration
    private(set) var smoothedLagMs = 0.0
    private(set) var isSaturated = false
    /// When the smoothed lag last crossed to the side that would change the state.
    private var crossedAt: Timestamp?

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    mutating func sample(lagMs: Double, now: Timestamp) -> Transition? {
        guard configuration.isEnabled else { return nil }
        smoothedLagMs += configuration.smoothing * (max(0, lagMs) - smoothedLagMs)
        let threshold = Double(DurationText.milliseconds(configuration.lagThreshold))
        let pushing = isSaturated ? smoothedLagMs < threshold / 2 : smoothedLagMs > threshold
        guard pushing else {
            crossedAt = nil
            return nil
        }
        let since = crossedAt ?? now
        crossedAt = since
        let needed = DurationText.milliseconds(isSaturated ? configuration.releaseAfter : configuration.engageAfter)
        guard now - since >= needed else { return nil }
        isSaturated.toggle()
        crossedAt = nil
        return isSaturated ? .engaged : .released
    }

    /// What a refused client is told to wait: at least the time the node needs to recover.
    var retryAfterMs: Int { DurationText.milliseconds(configuration.releaseAfter) }
}
