import DrawProtocol
import Rooms
import Testing
@testable import DrawServer

/// Admission control's judgement on virtual time: samples every 100 ms.
@Suite("Saturation detector")
struct SaturationDetectorTests {
    /// Feeds `lagMs` every 100 ms from `start` for `seconds`; the transitions with their times.
    static func feed(_ detector: inout SaturationDetector, lagMs: Double, from start: Int64, seconds: Double) -> [(Int64, SaturationDetector.Transition)] {
        var seen: [(Int64, SaturationDetector.Transition)] = []
        var t = start
        while t < start + Int64(seconds * 1000) {
            if let transition = detector.sample(lagMs: lagMs, now: Timestamp(milliseconds: t)) { seen.append((t, transition)) }
            t += 100
        }
        return seen
    }

    @Test func engagesAfterSustainedLagAndReleasesAfterSustainedCalm() {
        var detector = SaturationDetector()
        #expect(Self.feed(&detector, lagMs: 2, from: 0, seconds: 10).isEmpty)
        let engaged = Self.feed(&detector, lagMs: 120, from: 10_000, seconds: 10)
        #expect(engaged.map(\.1) == [.engaged])
        // The average passes 50 ms within a few samples; then 3 s must pass.
        let at = engaged.first?.0 ?? 0
        #expect((13_000...13_600).contains(at), "engaged at \(at) ms")
        #expect(detector.isSaturated)
        let released = Self.feed(&detector, lagMs: 1, from: 20_000, seconds: 10)
        #expect(released.map(\.1) == [.released])
        let releasedAt = released.first?.0 ?? 0
        #expect((25_000...25_800).contains(releasedAt), "released at \(releasedAt) ms")
        #expect(!detector.isSaturated)
    }

    @Test func shortSpikesNeverEngage() {
        var detector = SaturationDetector()
        for second in 0..<30 {
            // One second of heavy lag (a burst of turn ends), then two calm ones.
            let lag: Double = second % 3 == 0 ? 200 : 1
            #expect(Self.feed(&detector, lagMs: lag, from: Int64(second) * 1000, seconds: 1).isEmpty)
        }
        #expect(!detector.isSaturated)
    }

    @Test func lagBetweenHalfAndThresholdKeepsTheCurrentState() {
        var detector = SaturationDetector()
        _ = Self.feed(&detector, lagMs: 100, from: 0, seconds: 5)
        #expect(detector.isSaturated)
        #expect(Self.feed(&detector, lagMs: 35, from: 5_000, seconds: 30).isEmpty, "no flapping between 25 and 50 ms")
        #expect(detector.isSaturated)
    }

    @Test func aThresholdOfZeroTurnsItOff() {
        var detector = SaturationDetector(configuration: .init(lagThreshold: .zero))
        #expect(Self.feed(&detector, lagMs: 10_000, from: 0, seconds: 60).isEmpty)
        #expect(!detector.isSaturated)
    }
}
