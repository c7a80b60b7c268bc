import ArgumentParser
import DrawProtocol
import Rooms

/// Reading duration flags: one syntax for all of them (`DurationText`: `250ms`, `2s`, `5m`),
/// a bare number in the unit of the flag's older name.
enum DurationFlag {
    static func seconds(_ text: String) throws -> Duration { try parse(text, .seconds) }
    static func milliseconds(_ text: String) throws -> Duration { try parse(text, .milliseconds) }

    private static func parse(_ text: String, _ bareUnit: DurationText.Unit) throws -> Duration {
        guard let value = DurationText.parse(text, bareUnit: bareUnit) else {
            throw ValidationError("a duration is a number and a unit, such as 250ms, 2s or 5m; not \(text)")
        }
        return value
    }

    /// `value` if it lies in `range`, else an error that names the flag and the range.
    static func check(_ value: Duration?, _ flag: String, _ range: ClosedRange<Duration>) throws -> Duration? {
        guard let value else { return nil }
        guard range.contains(value) else {
            throw ValidationError("--\(flag) must be \(DurationText.describe(range.lowerBound)) to \(DurationText.describe(range.upperBound)), not \(DurationText.describe(value))")
        }
        return value
    }
}
