import Canvas
import DrawProtocol
import Foundation
import Testing
@testable import Rooms

/// Issue 36: a screen that watches (`join` with `watch`, the `/tv` page) takes no seat,
/// never hosts or plays, and keeps no room alive on its own.
@Suite("A screen that watches")
struct WatchingScreenTests {
    @Test func aFullRoomStillLetsAScreenInWithoutASeat() {
        var settings = RoomSettings()
        settings.maxPlayers = 2
        var h = RoomHarness(settings: settings)
        h.join("ada", "bob")
        #expect(h.join("cy").map(\.code) == [.roomFull], "no seat left for a player")
        #expect(h.watch("tv") == nil, "the screen gets in")
        let view = h.room.view(for: nil, now: h.now)
        let tv = view.players.first { $0.id == PlayerID("tv") }
        #expect(tv?.spectator == true && tv?.watching == true)
        #expect(h.room.summary.players == 2, "it holds no seat")
        #expect(h.received("ada").contains { if case .joined(let p) = $0 { p.id == PlayerID("tv") && p.watching } else { false } })
    }

    @Test func aScreenNeverHostsNorTakesASeat() {
        var h = RoomHarness()
        h.join("ada")
        #expect(h.watch("tv") == nil)
        h.send(.spectate(false), from: "tv")
        #expect(h.received("tv").contains { if case .error(let e) = $0 { e.code == .badMessage } else { false } })
        #expect(h.room.view(for: nil, now: h.now).players.first { $0.id == PlayerID("tv") }?.spectator == true)
        // The host leaves: the screen does not become host, and alone it keeps no room open.
        h.join("bob")
        h.leave("ada")
        #expect(h.room.host == PlayerID("bob"))
        h.leave("bob")
        #expect(h.room.isClosed, "a room with only a screen left closes")
    }

    @Test func aScreenSeesTheMaskNotTheWordAndIsStoredAsAScreen() throws {
        var h = RoomHarness()
        h.join("ada", "bob")
        #expect(h.watch("tv") == nil)
        h.startGame(host: "ada")
        h.chooseFirst()
        let words = h.received("tv").compactMap { message -> String?? in
            if case .turn(_, _, _, _, let word) = message { word } else { nil }
        }
        #expect(!words.isEmpty && words.allSatisfy { $0 == nil }, "the screen gets the turn without the word")
        let data = try JSONEncoder().encode(h.room.snapshot(now: h.now))
        let restored = try Room(
            restoring: try JSONDecoder().decode(RoomSnapshot.self, from: data), frames: [],
            configuration: h.room.configuration, now: h.now
        )
        #expect(restored.view(for: nil, now: h.now).players.first { $0.id == PlayerID("tv") }?.watching == true)
    }
}
