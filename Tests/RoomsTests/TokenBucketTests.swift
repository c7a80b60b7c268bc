import DrawProtocol
import Testing
@testable import Rooms

@Suite("Token buckets")
struct TokenBucketTests {
    @Test func fiveChatsPerThreeSeconds() {
        var bucket = TokenBucket(Rate(5, perMs: 3_000), now: .zero)
        func take(at ms: Int64) -> Bool { bucket.take(now: Timestamp(milliseconds: ms)) }
        #expect((0..<5).allSatisfy { _ in take(at: 0) })
        #expect(!take(at: 0))
        #expect(!take(at: 500))
        #expect(take(at: 600), "one token back after 3000/5 ms")
        #expect(!take(at: 600))
        #expect((0..<5).allSatisfy { _ in take(at: 10_000) })
        #expect(!take(at: 10_000), "refill never exceeds capacity")
    }

    @Test func chargingIntoDebtBlocksUntilRepaid() {
        var bucket = TokenBucket(Rate(4_000, perMs: 1_000), now: .zero)
        bucket.charge(6_000, now: .zero)
        let early = bucket.hasTokens(now: Timestamp(milliseconds: 400))
        let later = bucket.hasTokens(now: Timestamp(milliseconds: 501))
        #expect(!early)
        #expect(later)
    }

    @Test func aLargeChargeIsPaidInFull() {
        // A maximum-size drawing frame holds about 32,000 points: at 4,000 a second its
        // sender waits 7 s (the bucket's 4,000 covered the rest), so a flood of such frames
        // relays no more than the budget.
        var points = TokenBucket(Rate(4_000, perMs: 1_000), now: .zero)
        points.charge(32_000, now: .zero)
        #expect(points.waitMs(now: .zero) == 7_001)
        let early = points.hasTokens(now: Timestamp(milliseconds: 6_999))
        let later = points.hasTokens(now: Timestamp(milliseconds: 7_001))
        #expect(!early)
        #expect(later)
    }

    @Test func waitTellsWhenTheNextTokenComesBack() {
        var bucket = TokenBucket(Rate(5, perMs: 3_000), now: .zero)
        #expect(bucket.waitMs(now: .zero) == 0)
        for _ in 0..<5 { _ = bucket.take(now: .zero) }
        #expect(bucket.waitMs(now: .zero) == 600)
        #expect(bucket.waitMs(now: Timestamp(milliseconds: 450)) == 150)
        #expect(bucket.waitMs(now: Timestamp(milliseconds: 600)) == 0)
        let taken = bucket.take(now: Timestamp(milliseconds: 600))
        #expect(taken, "the token is there when the wait is over")
        var points = TokenBucket(Rate(4_000, perMs: 1_000), now: .zero)
        points.charge(6_000, now: .zero)
        #expect(points.waitMs(now: .zero) == 501, "a debt is paid back before the next token")
        #expect(points.waitMs(for: 10_000, now: .zero) == 1_500, "a cost above capacity waits for a full bucket")
        let full = TokenBucket(Rate(4_000, perMs: 1_000), now: .zero)
        #expect(full.waitMs(for: 10_000, now: .zero) == 0)
    }

    @Test func ratesParse() {
        #expect(Rate(parsing: "5/3s") == Rate(5, perMs: 3_000))
        #expect(Rate(parsing: "120/1s") == Rate(120, perMs: 1_000))
        #expect(Rate(parsing: "10/250ms") == Rate(10, perMs: 250))
        #expect(Rate(parsing: "0/1s") == nil)
        #expect(Rate(parsing: "5") == nil)
        #expect(Rate(parsing: "5/3") == nil)
        #expect(Rate(5, perMs: 3_000).description == "5/3s")
    }
}

/// One way to write a duration in every flag, and the bare numbers of the older flag names.
@Suite("Duration text")
struct DurationTextTests {
    @Test func unitsAndBareNumbers() {
        #expect(DurationText.parse("250ms", bareUnit: .seconds) == .milliseconds(250))
        #expect(DurationText.parse("2s", bareUnit: .milliseconds) == .seconds(2))
        #expect(DurationText.parse("1.5s", bareUnit: .seconds) == .milliseconds(1500))
        #expect(DurationText.parse("5m", bareUnit: .seconds) == .seconds(300))
        #expect(DurationText.parse("1h", bareUnit: .seconds) == .seconds(3600))
        #expect(DurationText.parse("2", bareUnit: .seconds) == .seconds(2))
        #expect(DurationText.parse("50", bareUnit: .milliseconds) == .milliseconds(50))
        #expect(DurationText.parse(" 0 ", bareUnit: .seconds) == .zero)
    }

    @Test func nonsenseIsRefused() {
        for text in ["", "s", "ms", "-1s", "2x", "two", "1e20s", "nan", "inf"] {
            #expect(DurationText.parse(text, bareUnit: .seconds) == nil, "\(text)")
        }
    }

    @Test func describedInTheLargestWholeUnit() {
        #expect(DurationText.describe(.milliseconds(1500)) == "1500ms")
        #expect(DurationText.describe(.seconds(2)) == "2s")
        #expect(DurationText.describe(.seconds(300)) == "5m")
        #expect(DurationText.describe(.zero) == "0s")
        #expect(DurationText.milliseconds(.milliseconds(1500)) == 1500)
    }

    @Test func ratePeriodsAreDurations() {
        #expect(Rate(parsing: "5/3s") == Rate(5, perMs: 3000))
        #expect(Rate(parsing: "10/1m") == Rate(10, perMs: 60_000))
        #expect(Rate(parsing: "120/500ms") == Rate(120, perMs: 500))
        #expect(Rate(parsing: "5/3") == nil, "a period needs its unit")
    }
}
