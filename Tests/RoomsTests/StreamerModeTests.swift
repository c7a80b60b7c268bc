import DrawProtocol
import Foundation
import Testing
@testable import Rooms

/// Issue 36: a streamer's room is never listed or offered to quick play, and the setting
/// survives a restart.
@Suite("Streamer mode")
struct StreamerModeTests {
    @Test func aStreamersRoomIsNeitherListedNorOfferedToQuickPlay() {
        var h = RoomHarness()
        h.join("ada")
        #expect(h.room.summary.isListed && h.room.summary.isQuickplayCandidate, "a public room is listed")
        h.send(.settings(SettingsPatch(streamer: true)), from: "ada")
        #expect(h.room.settings.streamer)
        #expect(!h.room.summary.isPublic && !h.room.summary.isListed && !h.room.summary.isQuickplayCandidate)
        // The room's own view still says what its host chose.
        #expect(h.room.view(for: nil, now: h.now).isPublic)
        #expect(h.room.view(for: nil, now: h.now).settings.streamer)
        h.send(.settings(SettingsPatch(streamer: false)), from: "ada")
        #expect(h.room.summary.isListed)
    }

    @Test func theSettingSurvivesARestartAndOlderSnapshotsReadAsOff() throws {
        var settings = RoomSettings()
        settings.streamer = true
        let stored = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(RoomSettings.self, from: stored).streamer)
        // Settings stored before the field existed.
        let older = Data(#"{"rounds":3,"drawTimeSec":80,"maxPlayers":8,"wordChoices":3,"hints":2,"language":"en","customWords":[],"customOnly":false}"#.utf8)
        let decoded = try JSONDecoder().decode(RoomSettings.self, from: older)
        #expect(!decoded.streamer && decoded == RoomSettings())
    }
}
