import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// Issue 39, items 10 and 11: clamped settings are said, kicks are told as kicks, and the
/// room list says the language, the round and how many players are bots.
@Suite struct RoomFeedbackTests {
    private func notices(_ h: RoomHarness, _ name: String) -> [Notice] {
        h.received(name).compactMap { if case .notice(let n) = $0 { n } else { nil } }
    }

    private func leftReasons(_ h: RoomHarness, _ name: String) -> [LeaveReason] {
        h.received(name).compactMap { if case .left(_, let reason) = $0 { reason } else { nil } }
    }

    @Test func settingsOutOfRangeAreAdjustedAndTheHostIsTold() {
        var h = RoomHarness()
        h.join("Ada", "Bob")
        h.send(.settings(SettingsPatch(rounds: 99, drawTimeSec: 80, hints: -1, language: "xx")), from: "ada")
        #expect(h.room.settings.rounds == 10 && h.room.settings.hints == 0 && h.room.settings.language == "en")
        let told = notices(h, "ada")
        #expect(told == [.settingsAdjusted([
            AdjustedSetting(field: "rounds", value: .number(10)), AdjustedSetting(field: "hints", value: .number(0)),
            AdjustedSetting(field: "language", value: .text("en")),
        ])])
        #expect(ServerMessage.notice(told[0]).jsonString
            == #"{"t":"notice","code":"settings_adjusted","fields":{"rounds":10,"hints":0,"language":"en"}}"#)
        #expect(notices(h, "bob").isEmpty)
        // Values in range: nothing to say.
        h.send(.settings(SettingsPatch(rounds: 4)), from: "ada")
        #expect(notices(h, "ada").count == 1)
    }

    @Test func aKickAVoteKickAndALeaveAreToldApart() {
        var h = RoomHarness()
        h.join("Ada", "Bob", "Cy", "Dee", "Eve")
        h.send(.kick(playerID: RoomHarness.id("bob")), from: "ada")
        h.send(.votekick(playerID: RoomHarness.id("cy")), from: "ada")
        h.send(.votekick(playerID: RoomHarness.id("cy")), from: "dee")
        h.send(.votekick(playerID: RoomHarness.id("cy")), from: "eve")
        h.leave("dee")
        #expect(leftReasons(h, "ada") == [.kicked, .votekicked, .left])
        var expelled = h.room
        let effects = expelled.expel(RoomHarness.id("eve"), reason: .banned, now: h.now)
        #expect(effects.contains { if case .send(.left(_, .banned), .everyone) = $0 { true } else { false } })
        #expect(ServerMessage.left(PlayerID("bob"), reason: .kicked).jsonString == #"{"t":"left","playerId":"bob","reason":"kicked"}"#)
        // A seat lost after the grace period reads as a leave.
        h.disconnect("eve")
        h.advance(ms: h.room.configuration.graceMs + 1)
        #expect(leftReasons(h, "ada").last == .left)
    }

    @Test func theRoomListSaysLanguageRoundRoundsAndBots() {
        var settings = RoomSettings()
        settings.language = "de"
        settings.rounds = 4
        var h = RoomHarness(settings: settings)
        h.join("Ada")
        h.send(.addBot(level: .easy), from: "ada")
        #expect(h.room.summary.jsonString.contains(#""bots":1,"language":"de","round":0,"rounds":4"#))
        h.send(.ready(true), from: "ada")
        #expect(h.room.summary.round == 1)
        #expect(h.room.summary.players == 2 && h.room.summary.bots == 1)
    }
}

extension RoomSummary {
    var jsonString: String { String(decoding: jsonBytes(), as: UTF8.self) }
}
