import DrawProtocol
import Testing
@testable import Rooms

/// Issue 36: a screen that watches a telephone game (`/tv`) gets no `phoneStep`, so the
/// room's `phoneProgress` tells it each step's start and clock, a screen that arrives or
/// comes back mid-step gets who has handed in, and one that arrives during the album gets
/// the album as far as the host has shown it.
@Suite struct TelephoneWatcherTests {
    struct Progress: Equatable {
        var step: Int
        var done: [String]
        var remainingMs: Int?
    }

    /// The `phoneProgress` messages `name` got, forgetting its inbox.
    static func progress(_ h: inout RoomHarness, _ name: String) -> [Progress] {
        h.take(name).compactMap { message in
            guard case .phoneProgress(let step, let done, let remainingMs) = message else { return nil }
            return Progress(step: step, done: done.map(\.rawValue), remainingMs: remainingMs)
        }
    }

    static func phoneSteps(_ messages: [ServerMessage]) -> [PhoneStep] {
        messages.compactMap { if case .phoneStep(let step) = $0 { step } else { nil } }
    }

    /// A telephone room of four with a screen watching from the start.
    static func watchedHarness() -> RoomHarness {
        var h = TelephoneTests.harness()
        #expect(h.watch("tv") == nil)
        return h
    }

    @Test func everyStepStartTellsTheScreenItsClockWithNobodyDone() {
        var h = Self.watchedHarness()
        h.send(.start, from: "ada")
        #expect(Self.progress(&h, "tv") == [Progress(step: 0, done: [], remainingMs: 30_000)])
        h.advance(ms: 10_000)
        h.send(.phoneSubmit(text: "a cat"), from: "bob")
        #expect(Self.progress(&h, "tv") == [Progress(step: 0, done: ["bob"], remainingMs: 20_000)], "a submission carries the time left too")
        // Time runs out: step 1 (draw, 60 s) starts; the screen is told with nobody done.
        h.advance(ms: 20_000)
        #expect(Self.progress(&h, "tv") == [Progress(step: 1, done: [], remainingMs: 60_000)])
        // Everyone hands in early: step 2 (describe, 30 s) starts at once.
        h.advance(ms: 5_000)
        for name in TelephoneTests.players { h.send(.phoneSubmit(text: nil), from: name) }
        let seen = Self.progress(&h, "tv")
        #expect(seen.last == Progress(step: 2, done: [], remainingMs: 30_000))
        #expect(seen.dropLast().allSatisfy { $0.step == 1 && !$0.done.isEmpty && $0.remainingMs == 55_000 })
        #expect(Self.phoneSteps(h.received("tv")).isEmpty, "a screen is handed no step")
    }

    @Test func aPlayerGetsItsStepBeforeTheStepsProgress() throws {
        var h = TelephoneTests.harness()
        h.send(.start, from: "ada")
        let messages = h.take("bob")
        // A page still on the step before ignores a progress of another step; after its
        // own `phoneStep` the empty list agrees with the step it shows.
        let step = try #require(messages.firstIndex { if case .phoneStep = $0 { true } else { false } })
        let progress = try #require(messages.firstIndex { if case .phoneProgress = $0 { true } else { false } })
        #expect(step < progress)
    }

    @Test func aScreenThatJoinsOrComesBackMidStepGetsWhoHasHandedInAndTheClock() {
        var h = TelephoneTests.harness()
        h.send(.start, from: "ada")
        for name in TelephoneTests.players { h.send(.phoneSubmit(text: "\(name) writes"), from: name) }
        h.advance(ms: 15_000)
        h.send(.phoneSubmit(text: nil), from: "dee")
        h.send(.phoneSubmit(text: nil), from: "bob")
        #expect(h.watch("tv") == nil)
        #expect(Self.progress(&h, "tv") == [Progress(step: 1, done: ["bob", "dee"], remainingMs: 45_000)], "in seat order")
        #expect(Self.phoneSteps(h.received("tv")).isEmpty)
        // The screen drops out and comes back (a reload resumes with its token).
        h.disconnect("tv")
        h.advance(ms: 5_000)
        h.send(.phoneSubmit(text: nil), from: "ada")
        h.reconnect("tv")
        #expect(Self.progress(&h, "tv") == [Progress(step: 1, done: ["ada", "bob", "dee"], remainingMs: 40_000)])
        // A seat that comes back gets its step first, then the progress (its check marks).
        h.disconnect("dee")
        _ = h.take("dee")
        h.reconnect("dee")
        let messages = h.take("dee")
        #expect(Self.phoneSteps(messages).map(\.submitted) == [true])
        #expect(h.room.phase == .telephone, "cy has not handed in yet")
        #expect(messages.contains { if case .phoneProgress(1, let done, 40_000) = $0 { done.count == 3 } else { false } })
    }

    /// A player of the game who left the room and joins it again during a step is handed
    /// its step again, as one who comes back with its token is, and can still hand it in.
    @Test func aSeatThatLeftAndJoinsAgainGetsItsStepBack() {
        var h = TelephoneTests.harness()
        h.send(.start, from: "ada")
        h.leave("bob")
        _ = h.take("bob")
        #expect(h.join("bob").isEmpty)
        let steps = Self.phoneSteps(h.take("bob"))
        #expect(steps.map(\.step) == [0] && steps.map(\.submitted) == [false])
        h.send(.phoneSubmit(text: "a cat"), from: "bob")
        #expect(Self.progress(&h, "ada").last?.done == ["bob"])
    }

    @Test func aScreenThatJoinsDuringTheAlbumGetsItAsFarAsTheHostShowedIt() throws {
        var h = TelephoneTests.harness()
        h.send(.start, from: "ada")
        h.advance(until: .album)
        #expect(h.room.phase == .album)
        for _ in 0..<6 { h.send(.albumNext, from: "ada") }
        #expect(h.watch("tv") == nil)
        let messages = h.take("tv")
        let album = messages.firstIndex { if case .album(let chains) = $0 { chains.count == 4 } else { false } }
        let reveal = messages.firstIndex { if case .albumReveal(1, 0) = $0 { true } else { false } }
        #expect(album != nil && reveal != nil, "the album, then the host's place in it (chain 1, entry 0)")
        #expect(try #require(album) < #require(reveal))
        #expect(!messages.contains { if case .phoneProgress = $0 { true } else { false } })
        // Outside a telephone game a joiner gets none of it.
        for _ in 0..<(4 * 5) where h.room.phase == .album { h.send(.albumNext, from: "ada") }
        #expect(h.room.phase == .lobby)
        #expect(h.watch("tv2") == nil)
        #expect(!h.take("tv2").contains { if case .album = $0 { true } else if case .albumReveal = $0 { true } else { false } })
    }
}
