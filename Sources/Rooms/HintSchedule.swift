import DrawProtocol

/// When, during a turn's drawing phase, the next hint letter is revealed.
///
/// `n = min(hints, letterCount / 2)` reveals are spread evenly over the draw time, at
/// `drawTimeMs * k / (n + 1)` for `k = 1...n` (integer division). Even spacing leaves the
/// first stretch hint-free so quick guessers are rewarded for reading the drawing, and the
/// cap of half the letters (rounded down) matches `WordMask.maxReveals`, so a scheduled
/// reveal is never refused by the mask.
public struct HintSchedule: Sendable, Equatable {
    /// Offsets from the start of drawing, in milliseconds, ascending (strictly when the
    /// draw time is at least `n + 1` ms, which protocol draw times always are).
    public let revealTimesMs: [Int]

    /// - Parameters:
    ///   - hints: the room's `hints` setting; negative counts as 0.
    ///   - letterCount: letters and digits of the word (`WordMask.letterPositions.count`).
    ///   - drawTimeMs: length of the drawing phase; negative counts as 0.
    public init(hints: Int, letterCount: Int, drawTimeMs: Int) {
        let count = max(0, min(hints, letterCount / 2))
        let duration = max(0, drawTimeMs)
        guard count > 0 else {
            revealTimesMs = []
            return
        }
        // floor(duration * k / (count + 1)) computed without overflowing for any Int duration.
        let (quotient, remainder) = duration.quotientAndRemainder(dividingBy: count + 1)
        revealTimesMs = (1...count).map { quotient * $0 + remainder * $0 / (count + 1) }
    }

    /// Convenience for a mask: the schedule for exactly the letters that mask can reveal.
    public init(hints: Int, mask: WordMask, drawTimeMs: Int) {
        self.init(hints: hints, letterCount: mask.letterPositions.count, drawTimeMs: drawTimeMs)
    }

    /// How many reveals are due once `elapsedMs` of drawing have passed; a tick-driven
    /// caller reveals letters until the mask's count catches up with this.
    public func revealsDue(atElapsedMs elapsedMs: Int) -> Int {
        revealTimesMs.count(where: { $0 <= elapsedMs })
    }

    /// The offset of the next reveal after `elapsedMs`, or nil when none remain; lets a
    /// caller arm a single timer instead of polling.
    public func nextRevealMs(after elapsedMs: Int) -> Int? {
        revealTimesMs.first(where: { $0 > elapsedMs })
    }
}
