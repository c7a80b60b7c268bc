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
