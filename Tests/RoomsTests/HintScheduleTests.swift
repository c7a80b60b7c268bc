import DrawProtocol
import Testing
import Rooms

struct HintScheduleTests {
    @Test func evenlySpreadOverTheDrawTime() {
        #expect(HintSchedule(hints: 2, letterCount: 8, drawTimeMs: 90_000).revealTimesMs == [30_000, 60_000])
        #expect(HintSchedule(hints: 3, letterCount: 8, drawTimeMs: 80_000).revealTimesMs == [20_000, 40_000, 60_000])
        #expect(HintSchedule(hints: 1, letterCount: 5, drawTimeMs: 80_000).revealTimesMs == [40_000])
        #expect(HintSchedule(hints: 2, letterCount: 8, drawTimeMs: 100).revealTimesMs == [33, 66])
    }

    @Test(arguments: 0...5)
    func oneLetterWordsGetNoHints(hints: Int) {
        #expect(HintSchedule(hints: hints, letterCount: 1, drawTimeMs: 80_000).revealTimesMs.isEmpty)
    }

    @Test(arguments: 0...5)
    func twoLetterWordsGetAtMostOneHint(hints: Int) {
        let schedule = HintSchedule(hints: hints, letterCount: 2, drawTimeMs: 80_000)
        #expect(schedule.revealTimesMs == (hints == 0 ? [] : [40_000]))
    }

    @Test(arguments: 0...5)
    func neverMoreThanHalfTheLettersOrTheSetting(hints: Int) {
        for letters in 0...12 {
            let times = HintSchedule(hints: hints, letterCount: letters, drawTimeMs: 80_000).revealTimesMs
            #expect(times.count == min(hints, letters / 2))
            #expect(times == times.sorted())
            #expect(Set(times).count == times.count)
            #expect(times.allSatisfy { $0 > 0 && $0 < 80_000 })
        }
    }

    @Test func zeroHintsAndDegenerateInputs() {
        #expect(HintSchedule(hints: 0, letterCount: 10, drawTimeMs: 80_000).revealTimesMs.isEmpty)
        #expect(HintSchedule(hints: -3, letterCount: 10, drawTimeMs: 80_000).revealTimesMs.isEmpty)
        #expect(HintSchedule(hints: 2, letterCount: 0, drawTimeMs: 80_000).revealTimesMs.isEmpty)
        #expect(HintSchedule(hints: 2, letterCount: 10, drawTimeMs: -5).revealTimesMs == [0, 0])
        #expect(HintSchedule(hints: 2, letterCount: 10, drawTimeMs: .max).revealTimesMs == [Int.max / 3, Int.max / 3 * 2])
    }

    @Test func matchesTheMask() {
        let mask = WordMask(word: "t-rex")
        let schedule = HintSchedule(hints: 5, mask: mask, drawTimeMs: 60_000)
        #expect(schedule.revealTimesMs.count == mask.maxReveals)
        #expect(schedule.revealTimesMs == [20_000, 40_000])
    }

    @Test func dueCountsAndNextReveal() {
        let schedule = HintSchedule(hints: 2, letterCount: 8, drawTimeMs: 90_000)
        #expect(schedule.revealsDue(atElapsedMs: 0) == 0)
        #expect(schedule.revealsDue(atElapsedMs: 29_999) == 0)
        #expect(schedule.revealsDue(atElapsedMs: 30_000) == 1)
        #expect(schedule.revealsDue(atElapsedMs: 90_000) == 2)
        #expect(schedule.nextRevealMs(after: 0) == 30_000)
        #expect(schedule.nextRevealMs(after: 30_000) == 60_000)
        #expect(schedule.nextRevealMs(after: 60_000) == nil)
    }
}
