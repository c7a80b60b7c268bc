import DrawProtocol
import Testing
@testable import Rooms

@Suite("Room membership")
struct RoomMembershipTests {
    @Test func joinBroadcastsJoinedAndRoom() {
        var h = RoomHarness()
        h.join("ada")
        _ = h.take("ada")
        h.join("bob")
        let ada = h.take("ada")
        #expect(ada.contains { if case .joined(let p) = $0 { p.id == PlayerID("bob") } else { false } })
        #expect(ada.contains { $0.isRoom })
        #expect(h.received("bob").contains { $0.isRoom })
    }

    @Test func fullRoomRefusesJoins() {
        var settings = RoomSettings()
        settings.maxPlayers = 2
        var h = RoomHarness(settings: settings)
        #expect(h.join("ada", "bob", "cy").map(\.code) == [.roomFull])
    }

    @Test func leaveTellsEveryoneIncludingTheLeaver() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.leave("bob")
        #expect(h.received("bob").last == .left(PlayerID("bob")))
        #expect(h.received("ada").contains(.left(PlayerID("bob"))))
        #expect(h.released == [PlayerID("bob")])
    }

    @Test func hostHandOverGoesToLongestSeated() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy")
        h.leave("ada")
        #expect(h.room.host == PlayerID("bob"))
    }

    @Test func reconnectInsideGraceKeepsSeatAndScore() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy")
        h.startGame(host: "ada")
        h.chooseFirst()
        h.send(.chat(h.currentWord ?? ""), from: "bob")
        let score = h.room.member(PlayerID("bob"))?.score ?? 0
        #expect(score > 0)
        h.disconnect("bob")
        #expect(h.room.member(PlayerID("bob"))?.connected == false)
        h.advance(ms: 30_000)
        h.reconnect("bob")
        #expect(h.room.member(PlayerID("bob"))?.score == score)
        let back = h.received("bob")
        #expect(back.contains { $0.isRoom })
        #expect(back.contains(.canvas(width: 800, height: 600)))
        #expect(back.contains { if case .turn(_, _, _, _, let word) = $0 { word == nil } else { false } })
    }

    @Test func seatIsFreedAfterGrace() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.disconnect("bob")
        h.advance(ms: 59_999)
        #expect(h.room.isMember(PlayerID("bob")))
        h.advance(ms: 1)
        #expect(!h.room.isMember(PlayerID("bob")))
        #expect(h.received("ada").contains(.left(PlayerID("bob"))))
        #expect(h.released == [PlayerID("bob")])
    }

    @Test func lastMemberLeavingClosesTheRoom() {
        var h = RoomHarness()
        h.join("ada")
        h.leave("ada")
        #expect(h.room.isClosed)
    }

    @Test func kickBansForTenMinutes() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy")
        h.send(.kick(playerID: PlayerID("cy")), from: "bob")
        #expect(h.errors("bob") == [.notHost])
        h.send(.kick(playerID: PlayerID("cy")), from: "ada")
        #expect(h.received("cy").contains(.kicked(code: h.room.code)))
        #expect(!h.room.isMember(PlayerID("cy")))
        #expect(h.join("cy").map(\.code) == [.banned])
        h.advance(ms: 600_000)
        #expect(h.join("cy").isEmpty)
    }

    @Test func votekickNeedsMoreThanHalfOfTheOthers() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy", "dee")
        h.send(.votekick(playerID: PlayerID("dee")), from: "ada")
        h.send(.votekick(playerID: PlayerID("dee")), from: "ada")
        #expect(h.room.isMember(PlayerID("dee")), "one voter counts once")
        #expect(h.received("dee").contains(.votekick(target: PlayerID("dee"), votes: 1, needed: 2)))
        h.send(.votekick(playerID: PlayerID("dee")), from: "bob")
        #expect(!h.room.isMember(PlayerID("dee")))
        #expect(h.received("dee").contains(.kicked(code: h.room.code)))
    }

    @Test func spectatorsDoNotPlay() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy")
        h.send(.spectate(true), from: "cy")
        #expect(h.room.member(PlayerID("cy"))?.spectator == true)
        h.startGame(host: "ada")
        h.chooseFirst()
        let word = h.currentWord ?? ""
        h.send(.chat(word), from: "cy")
        #expect(h.room.member(PlayerID("cy"))?.guessed == false, "spectators cannot guess")
        #expect(!h.received("bob").contains { if case .chat(_, _, let text) = $0 { text == word } else { false } })
        h.send(.chat(word), from: "bob")
        #expect(h.room.phase == .turnEnd, "the spectator does not count for everyone guessed")
        h.advance(ms: 5_000)
        #expect(h.room.drawer == PlayerID("bob"), "spectators get no turn")
    }

    @Test func spectateDuringAGameTakesEffectNextTurn() {
        var h = RoomHarness()
        h.join("ada", "bob", "cy")
        h.startGame(host: "ada")
        h.chooseFirst()
        h.send(.spectate(true), from: "bob")
        #expect(h.room.member(PlayerID("bob"))?.spectator == false)
        h.send(.skip, from: "ada")
        h.advance(ms: 5_000)
        #expect(h.room.member(PlayerID("bob"))?.spectator == true)
        #expect(h.room.drawer == PlayerID("cy"))
    }

    @Test func settingsAreHostOnlyLobbyOnlyAndClamped() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.send(.settings(SettingsPatch(rounds: 99, drawTimeSec: 5, maxPlayers: 1, hints: -3)), from: "bob")
        #expect(h.errors("bob") == [.notHost])
        h.send(.settings(SettingsPatch(rounds: 99, drawTimeSec: 5, maxPlayers: 1, hints: -3)), from: "ada")
        #expect(h.room.settings.rounds == 10)
        #expect(h.room.settings.drawTimeSec == 30)
        #expect(h.room.settings.maxPlayers == 2)
        #expect(h.room.settings.hints == 0)
        h.startGame(host: "ada")
        h.send(.settings(SettingsPatch(rounds: 2)), from: "ada")
        #expect(h.errors("ada").last == .wrongPhase)
    }

    @Test func onlyTheHostSeesTheCustomWords() throws {
        // Whoever draws first, no room message to a player other than the host lists the
        // words (with customOnly and one word, that would be the answer); all get the count.
        let h = RoomHarness.drawing("walrus")
        for name in ["ada", "bob", "cy"] {
            for case .room(let view) in h.received(name) {
                let json = String(decoding: ServerMessage.room(view).jsonBytes(), as: UTF8.self)
                #expect(json.contains(#""customWordCount":1"#))
                #expect(json.contains("walrus") == (name == "ada" || view.word == "walrus"), "\(name): \(json)")
            }
        }
        #expect(h.received("bob").contains { if case .room = $0 { true } else { false } })
    }

    @Test func closeReleasesEveryone() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.apply(h.room.close())
        #expect(h.room.isClosed)
        #expect(Set(h.released) == [PlayerID("ada"), PlayerID("bob")])
        #expect(h.received("bob").contains(.closed(code: h.room.code)))
        #expect(h.join("cy").map(\.code) == [.roomNotFound])
    }
}
