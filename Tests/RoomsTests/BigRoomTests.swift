import Canvas
import DrawProtocol
import Testing
@testable import Rooms

/// Issue 36: rooms of up to 50 players.
@Suite("Rooms of 50")
struct BigRoomTests {
    static let names = (1...50).map { "p\($0)" }

    @Test func fiftySeatsAreTakenAndTheFiftyFirstIsRefused() {
        var settings = RoomSettings()
        settings.maxPlayers = 50
        var h = RoomHarness(settings: settings)
        for name in Self.names { #expect(h.join(name).isEmpty, "\(name) is seated") }
        #expect(h.join("late").map(\.code) == [.roomFull])
        #expect(h.room.view(for: nil, now: h.now).players.count == 50)
    }

    @Test func aFrameOfTheDrawerGoesToTheFortyNineOthers() throws {
        var settings = RoomSettings()
        settings.maxPlayers = 50
        var h = RoomHarness(settings: settings)
        for name in Self.names { h.join(name) }
        h.startGame(host: "p1")
        h.chooseFirst()
        let drawer = try #require(h.drawerName)
        let outcome = h.draw([.begin(tool: .pen, color: RGB(r: 0, g: 0, b: 0), width: 6, at: Point(x: 10, y: 10)), .points([Point(x: 90, y: 40)]), .end], from: drawer)
        guard case .relay(let sender, _) = outcome else { return #expect(Bool(false), "relayed: \(outcome)") }
        #expect(sender == PlayerID(drawer))
        #expect(h.frames.count == 49 && h.frames[PlayerID(drawer)] == nil)
    }

    @Test func fiftyIsTheMostASettingMayAskFor() {
        var h = RoomHarness()
        h.join("ada")
        h.send(.settings(SettingsPatch(maxPlayers: 50)), from: "ada")
        #expect(h.room.settings.maxPlayers == 50)
        h.send(.settings(SettingsPatch(maxPlayers: 51)), from: "ada")
        #expect(h.room.settings.maxPlayers == 50)
        #expect(h.received("ada").contains(.notice(.settingsAdjusted([AdjustedSetting(field: "maxPlayers", value: .number(50))]))))
    }
}
