import DrawProtocol
import Foundation
import Canvas
import Testing
@testable import Rooms

@Suite("Room turns and phases")
struct RoomTurnTests {
    func threePlayers(rounds: Int = 1, seed: UInt64 = 42) -> RoomHarness {
        var settings = RoomSettings()
        settings.rounds = rounds
        var h = RoomHarness(settings: settings, seed: seed)
        h.join("ada", "bob", "cy")
        return h
    }

    @Test func hostStartsWithTwoOrMorePlayers() {
        var h = RoomHarness()
        h.join("ada")
        h.send(.start, from: "ada")
        #expect(h.errors("ada") == [.notEnoughPlayers])
        h.join("bob")
        h.send(.start, from: "bob")
        #expect(h.errors("bob") == [.notHost])
        h.send(.start, from: "ada")
        #expect(h.room.phase == .choosing)
        #expect(h.room.drawer == PlayerID("ada"), "seat order: the first seated draws first")
    }

    @Test func everyoneReadyStartsTheGame() {
        var h = threePlayers()
        h.send(.ready(true), from: "ada")
        h.send(.ready(true), from: "bob")
        #expect(h.room.phase == .lobby)
        h.send(.ready(true), from: "cy")
        #expect(h.room.phase == .choosing)
        #expect(h.received("bob").contains(.ready(PlayerID("cy"), true)))
    }

    @Test func drawerAloneGetsTheChoices() {
        var h = threePlayers()
        h.startGame(host: "ada")
        let choose = h.received("ada").compactMap { if case .choose(let words, _) = $0 { words } else { nil } }
        #expect(choose.count == 1)
        #expect(choose.first?.count == 3)
        #expect(!h.received("bob").contains { if case .choose = $0 { true } else { false } })
        #expect(h.received("bob").contains(.choosing(drawer: PlayerID("ada"), remainingMs: 15_000)))
    }

    @Test func wholeRoundEndsInGameEndAndThenLobby() {
        var h = threePlayers(rounds: 1)
        h.startGame(host: "ada")
        var drawers: [String] = []
        for _ in 0..<3 {
            #expect(h.room.phase == .choosing)
            drawers.append(h.drawerName ?? "?")
            h.chooseFirst()
            #expect(h.room.phase == .drawing)
            let word = h.currentWord ?? ""
            for guesser in ["ada", "bob", "cy"] where guesser != h.drawerName {
                h.send(.chat(word.uppercased()), from: guesser)
            }
            #expect(h.room.phase == .turnEnd)
            #expect(h.turns.last?.reason == .allGuessed)
            h.advance(ms: 5_000)
        }
        #expect(drawers == ["ada", "bob", "cy"])
        #expect(h.room.phase == .gameEnd)
        let ranking = h.games.first?.ranking ?? []
        #expect(ranking.count == 3)
        #expect(ranking.map(\.place).first == 1)
        #expect(ranking.map(\.score) == ranking.map(\.score).sorted(by: >))
        h.advance(ms: 10_000)
        #expect(h.room.phase == .lobby)
        #expect(h.room.members.allSatisfy { !$0.ready })
    }

    @Test func chooseTimeoutPicksAWord() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.advance(ms: 15_000)
        #expect(h.room.phase == .drawing)
        #expect(h.currentWord != nil)
        #expect(h.received("ada").contains { if case .turn(_, _, _, _, let word) = $0 { word != nil } else { false } })
    }

    @Test func timeRunsOut() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.chooseFirst()
        h.advance(ms: 80_000)
        #expect(h.room.phase == .turnEnd)
        #expect(h.turns.last?.reason == .time)
        #expect(h.turns.last?.scores.values.allSatisfy { $0 == 0 } == true)
    }

    @Test func drawerSkips() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.send(.skip, from: "ada")
        #expect(h.errors("ada") == [.wrongPhase])
        h.chooseFirst()
        h.send(.skip, from: "bob")
        #expect(h.errors("bob") == [.notDrawer])
        h.send(.skip, from: "ada")
        #expect(h.turns.last?.reason == .skipped)
        let word = h.turns.last?.word ?? ""
        #expect(h.received("bob").contains { if case .turnEnd(let w, .skipped, _, _, _) = $0 { w == word } else { false } })
    }

    @Test func drawerLeavingEndsTheTurn() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.chooseFirst()
        h.leave("ada")
        #expect(h.turns.last?.reason == .drawerLeft)
        #expect(h.room.host == PlayerID("bob"), "the longest-seated player becomes host")
    }

    @Test func drawerLeavingWhileChoosingPassesTheTurnOn() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.leave("ada")
        #expect(h.room.phase == .choosing)
        #expect(h.room.drawer == PlayerID("bob"))
    }

    @Test func drawerDisconnectedTenSecondsLosesTheTurn() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.chooseFirst()
        h.disconnect("ada")
        h.advance(ms: 9_000)
        #expect(h.room.phase == .drawing)
        h.advance(ms: 1_000)
        #expect(h.turns.last?.reason == .drawerLeft)
        #expect(h.room.isMember(PlayerID("ada")), "still seated: only the turn is lost")
    }

    @Test func hintsNeverRevealMoreThanHalf() {
        var settings = RoomSettings()
        settings.hints = 5
        settings.customWords = ["cat"]
        settings.customOnly = true
        settings.wordChoices = 1
        var h = RoomHarness(settings: settings)
        h.join("ada", "bob")
        h.startGame(host: "ada")
        h.chooseFirst()
        h.advance(ms: 79_000)
        let hints = h.received("bob").compactMap { if case .hint(let mask) = $0 { mask } else { nil } }
        #expect(hints == hints.filter { _ in true })
        #expect(hints.count == 1, "a 3-letter word reveals at most 1 letter")
        let revealed = hints.last.map { $0.filter { $0.isLetter }.count } ?? 0
        #expect(revealed == 1)
        #expect(!h.received("ada").contains { if case .hint = $0 { true } else { false } })
    }

    /// The shell does not store a room for a hint alone (`LiveRoom.storesState`): a room
    /// restored from its snapshot before the hint reveals the same letter at the same time,
    /// since the snapshot keeps the room's random state and the hint's schedule.
    @Test func aRoomRestoredFromBeforeAHintRevealsTheSameLetter() throws {
        var settings = RoomSettings()
        settings.hints = 3
        var h = RoomHarness.drawing("elephant", settings: settings)
        h.advance(ms: 1_000)
        let snapshotAt = h.now
        let before = h.room.snapshot(now: snapshotAt)
        let hintAt = h.room.nextDeadline
        _ = h.take("bob")
        h.advance(ms: 30_000)
        let live = h.received("bob").compactMap { if case .hint(let mask) = $0 { mask } else { nil } }
        try #require(!live.isEmpty, "a hint was revealed within 30 s")
        let data = try JSONEncoder().encode(before)
        var restored = try Room(
            restoring: try JSONDecoder().decode(RoomSnapshot.self, from: data), frames: [],
            configuration: h.room.configuration, now: snapshotAt
        )
        // Everyone comes back, as after a restart (a restored room starts them disconnected).
        for name in ["ada", "bob", "cy"] { _ = restored.connect(PlayerID(name), now: snapshotAt) }
        #expect(restored.nextDeadline == hintAt)
        var replayed: [String] = []
        var now = snapshotAt
        while let deadline = restored.nextDeadline, deadline <= h.now {
            now = max(now, deadline)
            for case .send(.hint(let mask), _) in restored.tick(now: now) { replayed.append(mask) }
        }
        #expect(replayed == live)
    }

    @Test func scoresEarlierGuessesHigherAndPaysTheDrawer() {
        var h = threePlayers()
        h.startGame(host: "ada")
        h.chooseFirst()
        let word = h.currentWord ?? ""
        h.advance(ms: 10_000)
        h.send(.guess(word), from: "bob")
        h.advance(ms: 30_000)
        h.send(.guess(word), from: "cy")
        let scores = h.turns.last?.scores ?? [:]
        let bob = scores[PlayerID("bob")] ?? 0
        let cy = scores[PlayerID("cy")] ?? 0
        #expect(bob > cy)
        #expect(cy >= 50)
        #expect((scores[PlayerID("ada")] ?? 0) > 0)
        #expect(h.room.member(PlayerID("bob"))?.score == bob)
    }

    @Test func lateJoinerGuessesNowAndDrawsNextRound() {
        var h = threePlayers(rounds: 2)
        h.startGame(host: "ada")
        h.chooseFirst()
        h.join("dee")
        #expect(h.received("dee").contains { $0.isRoom })
        let word = h.currentWord ?? ""
        h.send(.chat(word), from: "dee")
        #expect(h.received("ada").contains { if case .guessed(let id, _, _) = $0 { id == PlayerID("dee") } else { false } })
        var drawers: [String] = []
        for _ in 0..<7 where h.room.phase != .gameEnd {
            h.advance(until: .choosing)
            drawers.append(h.drawerName ?? "?")
            h.send(.skip, from: h.drawerName ?? "")
            h.chooseFirst()
            h.send(.skip, from: h.drawerName ?? "")
        }
        #expect(drawers.prefix(6) == ["bob", "cy", "ada", "bob", "cy", "dee"])
    }

    @Test func tooFewPlayersEndTheGame() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.startGame(host: "ada")
        h.chooseFirst()
        h.leave("bob")
        #expect(h.turns.last?.reason == .allGuessed)
        h.advance(ms: 5_000)
        #expect(h.room.phase == .gameEnd)
    }

    @Test func equalScoresSharePlaces() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy")
        h.startGame(host: "ada")
        h.advance(until: .gameEnd, limitMs: 2_000_000)
        let places = h.games.first?.ranking.map(\.place) ?? []
        #expect(places == [1, 1, 1], "nobody scored: everyone shares first place")
    }
}
