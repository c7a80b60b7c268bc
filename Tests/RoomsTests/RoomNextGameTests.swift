import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// Issue 39, item 9: between games a countdown runs in the lobby; "Play again" (`ready`)
/// keeps a player in, those who do not tap watch the next game; on virtual time.
@Suite struct RoomNextGameTests {
    private func threePlayersAfterAGame() -> RoomHarness {
        var settings = RoomSettings()
        settings.rounds = 1
        var h = RoomHarness(settings: settings)
        h.join("Ada", "Bob", "Cy")
        h.startGame(host: "ada")
        h.chooseFirst()
        h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 50, y: 50)]), .end], from: "ada")
        h.advance(until: .gameEnd)
        return h
    }

    private func lastRoom(_ h: RoomHarness, _ name: String) -> RoomView? {
        for case .room(let view) in h.received(name).reversed() { return view }
        return nil
    }

    @Test func playAgainDuringTheGameEndIsKeptAndTheCountdownRuns() {
        var h = threePlayersAfterAGame()
        #expect(h.room.members.allSatisfy { !$0.ready })
        h.send(.ready(true), from: "bob")
        #expect(h.errors("bob").isEmpty)
        h.advance(until: .lobby)
        #expect(h.room.member(RoomHarness.id("bob"))?.ready == true)
        #expect(h.room.member(RoomHarness.id("ada"))?.ready == false)
        #expect(lastRoom(h, "ada")?.nextGameMs == h.room.configuration.nextGameMs)
        #expect(ServerMessage.room(lastRoom(h, "ada")!).jsonString.contains(#""nextGameMs":20000"#))
        h.advance(ms: 5_000)
        #expect(h.room.view(for: nil, now: h.now).nextGameMs == 15_000)
        // Everyone taps: the game starts at once, no countdown left.
        h.send(.ready(true), from: "ada")
        h.send(.ready(true), from: "cy")
        #expect(h.room.phase == .choosing)
        #expect(h.room.view(for: nil, now: h.now).nextGameMs == nil)
    }

    @Test func whenTheCountdownEndsThoseWhoDidNotTapWatch() {
        var h = threePlayersAfterAGame()
        h.advance(until: .lobby)
        h.send(.ready(true), from: "ada")
        h.send(.ready(true), from: "bob")
        #expect(h.room.phase == .lobby)
        h.advance(ms: h.room.configuration.nextGameMs)
        #expect(h.room.phase == .choosing)
        #expect(h.room.member(RoomHarness.id("cy"))?.spectator == true)
        #expect(h.room.activePlayers(connectedOnly: false).map(\.id) == [RoomHarness.id("ada"), RoomHarness.id("bob")])
        // One tap takes the seat back (for the next turn's round).
        h.send(.spectate(false), from: "cy")
        #expect(h.room.member(RoomHarness.id("cy"))?.spectator == false)
    }

    @Test func withFewerThanTwoReadyTheRoomStaysInItsLobby() {
        var h = threePlayersAfterAGame()
        h.advance(until: .lobby)
        h.send(.ready(true), from: "ada")
        h.advance(ms: h.room.configuration.nextGameMs)
        #expect(h.room.phase == .lobby)
        #expect(h.room.nextDeadline == nil)
        #expect(lastRoom(h, "bob")?.nextGameMs == nil)
        #expect(h.room.members.allSatisfy { !$0.spectator })
    }

    @Test func botsAloneDoNotPlayOnForAPersonWhoWalkedAway() {
        var settings = RoomSettings()
        settings.rounds = 1
        var h = RoomHarness(settings: settings)
        h.join("Ada")
        h.send(.addBot(level: .easy), from: "ada")
        h.send(.addBot(level: .easy), from: "ada")
        h.send(.ready(true), from: "ada")
        h.advance(until: .gameEnd)
        h.advance(until: .lobby)
        h.advance(ms: h.room.configuration.nextGameMs)
        #expect(h.room.phase == .lobby)
        #expect(h.room.member(RoomHarness.id("ada"))?.spectator == false)
    }

    @Test func theCountdownSurvivesARestart() throws {
        var h = threePlayersAfterAGame()
        h.advance(until: .lobby)
        h.advance(ms: 8_000)
        let restored = try Room(restoring: h.room.snapshot(now: h.now), frames: [], configuration: h.room.configuration, now: h.now)
        #expect(restored.view(for: nil, now: h.now).nextGameMs == 12_000)
        #expect(restored.nextDeadline == h.now + 12_000)
    }

    /// Item 9's moderator thumbnail: the canvas keeps the last drawing through `gameEnd`,
    /// as the players' screens do, and is cleared when the room returns to its lobby.
    @Test func theLastDrawingStaysOnTheCanvasUntilTheLobby() {
        var settings = RoomSettings()
        settings.rounds = 1
        var h = RoomHarness(settings: settings)
        h.join("Ada", "Bob")
        h.startGame(host: "ada")
        h.chooseFirst()
        h.send(.skip, from: "ada")
        h.advance(until: .choosing)
        h.chooseFirst()
        h.draw([.begin(tool: .pen, color: .black, width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 50, y: 50)]), .end], from: "bob")
        h.advance(until: .gameEnd)
        #expect(h.room.phase == .gameEnd)
        #expect(!h.room.drawing.isEmpty)
        h.advance(until: .lobby)
        #expect(h.room.drawing.isEmpty)
    }

    @Test func withTheCountdownOffNothingRuns() {
        var configuration = RoomConfiguration()
        configuration.nextGameMs = 0
        var settings = RoomSettings()
        settings.rounds = 1
        var h = RoomHarness(settings: settings, configuration: configuration)
        h.join("Ada", "Bob")
        h.startGame(host: "ada")
        h.advance(until: .gameEnd)
        h.advance(until: .lobby)
        #expect(h.room.nextDeadline == nil)
    }
}
