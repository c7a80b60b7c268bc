import DrawProtocol

/// Durations as they are written in flags and the environment: a number and a unit, `250ms`,
/// `2s`, `1.5s`, `5m`, `1h` (the period of a `Rate`, `5/3s`, is written the same way). Every
/// duration flag takes this; a bare number is read in the unit of the flag's older name
/// (`--turn-end-seconds 2`, `--saturation-lag-ms 50`), so no script breaks.
public enum DurationText {
    public enum Unit: Sendable, Equatable {
        case milliseconds, seconds

        var duration: Duration { self == .milliseconds ? .milliseconds(1) : .seconds(1) }
    }

    static let suffixes: [(String, Duration)] = [
        ("ms", .milliseconds(1)), ("s", .seconds(1)), ("m", .seconds(60)), ("h", .seconds(3600)),
    ]

    /// The duration `text` says, or nil when it is not a non-negative number with a known
    /// unit (or a bare number, read in `bareUnit`).
    public static func parse(_ text: String, bareUnit: Unit) -> Duration? {
        let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        var number = Substring(trimmed)
        var unit = bareUnit.duration
        // "ms" before "m" and "s": the longest suffix that matches.
        for (suffix, value) in suffixes where trimmed.hasSuffix(suffix) && trimmed.count > suffix.count {
            let candidate = trimmed.dropLast(suffix.count)
            if Double(candidate) != nil {
                number = candidate
                unit = value
                break
            }
        }
        guard let value = Double(number), value.isFinite, value >= 0, value <= 1e9 else { return nil }
        return unit * value
    }

    /// `d` written back in the largest unit that keeps it whole (`1500ms`, `2s`, `5m`).
    public static func describe(_ d: Duration) -> String {
        let ms = milliseconds(d)
        if ms % 3_600_000 == 0, ms > 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0, ms > 0 { return "\(ms / 60_000)m" }
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        return "\(ms)ms"
    }

    /// Whole milliseconds (rounded down), the unit the game core's clock counts in.
    public static func milliseconds(_ d: Duration) -> Int {
        let parts = d.components
        return Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}
