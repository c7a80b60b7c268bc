import DrawProtocol
import Rooms
import Testing
@testable import DrawServer

/// The budgets' timing on virtual time: when each held message may go. The loopback tests
/// (BudgetTests, AbuseTests) show that messages are held and then delivered whole; these
/// pin how long, without a wall clock.
@Suite("Connection budgets on virtual time")
struct ConnectionLimiterTests {
    /// Plays messages that each go as soon as their wait allows; returns when each went.
    static func sendTimes(_ count: Int, _ wait: (inout ConnectionLimiter, Timestamp) -> Int, limiter: inout ConnectionLimiter) -> [Int] {
        var now = 0
        var times: [Int] = []
        for _ in 0..<count {
            while true {
                let delay = wait(&limiter, Timestamp(milliseconds: Int64(now)))
                if delay == 0 { break }
                now += delay
            }
            times.append(now)
        }
        return times
    }

    @Test func thousandPointFramesGoAtTheRateOfThePointBudget() {
        var limiter = ConnectionLimiter(limits: ServerConfiguration.Limits(), now: Timestamp(milliseconds: 0))
        let times = Self.sendTimes(10, { limiter, now in
            let wait = limiter.frameWaitMs(now: now)
            if wait == 0 { limiter.charge(points: 1_024, now: now) }
            return wait
        }, limiter: &limiter)
        // 4,000 points a second: four go at once (the fourth overdraws), the fifth when the
        // 96-point debt is repaid (24 ms, rounded up to whole ms), each later one 256 ms
        // after the one before.
        #expect(Array(times[0..<4]) == [0, 0, 0, 0])
        #expect((24...25).contains(times[4]), "\(times)")
        for index in 5..<10 { #expect(times[index] - times[index - 1] == 256, "\(times)") }
        #expect(times[9] >= 1_250)
    }

    @Test func textMessagesOverTheBudgetWaitForTheirTokens() {
        var limits = ServerConfiguration.Limits()
        limits.messageRate = Rate(4, perMs: 2_000)
        var limiter = ConnectionLimiter(limits: limits, now: Timestamp(milliseconds: 0))
        let times = Self.sendTimes(6, { limiter, now in limiter.textWaitMs(isChat: false, now: now) }, limiter: &limiter)
        // Four at once, then one token every 500 ms.
        #expect(times == [0, 0, 0, 0, 500, 1_000])
    }

    @Test func theSixthChatLineWaitsForAChatToken() {
        var limiter = ConnectionLimiter(limits: ServerConfiguration.Limits(), now: Timestamp(milliseconds: 0))
        let times = Self.sendTimes(6, { limiter, now in limiter.textWaitMs(isChat: true, now: now) }, limiter: &limiter)
        // Five per 3 s: the sixth after 600 ms.
        #expect(Array(times[0..<5]) == [0, 0, 0, 0, 0])
        #expect(times[5] == 600)
    }
}
