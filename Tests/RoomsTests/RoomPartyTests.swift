import Canvas
import DrawProtocol
import Foundation
import Testing
@testable import Rooms

/// Ratings, chat history and avatars in the room (docs/PROTOCOL.md additions).
@Suite("Ratings, chat history and avatars")
struct RoomPartyTests {
    /// Ada draws "elephant"; Bob and Cy guess.
    func drawingRoom() -> RoomHarness { RoomHarness.drawing("elephant") }

    func ratings(_ h: RoomHarness, _ name: String) -> [RatingCounts] {
        h.received(name).compactMap { if case .ratings(let counts) = $0 { counts } else { nil } }
    }

    func lastRoom(_ h: RoomHarness, _ name: String) -> RoomView? {
        h.received(name).reversed().lazy.compactMap { if case .room(let view) = $0 { view } else { nil } }.first
    }

    // MARK: - Ratings

    @Test func guessersRateChangeTheirMindAndWithdraw() {
        var h = drawingRoom()
        #expect(h.drawerName == "ada")
        h.send(.rate(.like), from: "bob")
        h.send(.rate(.dislike), from: "cy")
        h.send(.rate(.dislike), from: "bob")  // changes its mind
        h.send(.rate(nil), from: "cy")  // withdraws
        #expect(ratings(h, "ada") == [
            RatingCounts(likes: 1, dislikes: 0), RatingCounts(likes: 1, dislikes: 1),
            RatingCounts(likes: 0, dislikes: 2), RatingCounts(likes: 0, dislikes: 1),
        ])
        // The same rating again changes nothing and sends nothing.
        h.send(.rate(.dislike), from: "bob")
        #expect(ratings(h, "ada").count == 4)
        #expect(h.errors("bob").isEmpty && h.errors("cy").isEmpty)
    }

    @Test func theDrawerSpectatorsAndOtherPhasesAreRefused() {
        var h = drawingRoom()
        h.send(.rate(.like), from: "ada")
        #expect(h.errors("ada") == [.notGuesser])
        var lobby = RoomHarness()
        lobby.join("ada", "bob")
        lobby.send(.rate(.like), from: "bob")
        #expect(lobby.errors("bob") == [.wrongPhase])
        lobby.startGame(host: "ada")
        #expect(lobby.room.phase == .choosing)
        lobby.send(.rate(.like), from: "bob")
        #expect(lobby.errors("bob") == [.wrongPhase, .wrongPhase])
        // Not in the room at all.
        #expect(h.room.handle(.rate(.like), from: PlayerID("zed"), now: h.now).contains {
            if case .send(.error(let e), _) = $0 { e.code == .notInRoom && e.ref == "rate" } else { false }
        })
    }

    @Test func roomMessagesCarryCountsAndEachPlayersOwnRating() {
        var h = drawingRoom()
        h.send(.rate(.like), from: "bob")
        h.disconnect("cy")
        h.reconnect("cy")
        h.reconnect("bob")
        let bob = lastRoom(h, "bob"), cy = lastRoom(h, "cy"), ada = lastRoom(h, "ada")
        #expect(bob?.ratings == RatingCounts(likes: 1, dislikes: 0))
        #expect(bob?.showsMyRating == true && bob?.myRating == .like)
        #expect(cy?.showsMyRating == true && cy?.myRating == nil)
        #expect(ada?.ratings == RatingCounts(likes: 1, dislikes: 0) && ada?.myRating == nil)
        let json = ServerMessage.room(bob!).jsonString
        #expect(json.contains(#""ratings":{"likes":1,"dislikes":0},"myRating":"like""#))
        #expect(ServerMessage.room(cy!).jsonString.contains(#""myRating":null"#))
        // The moderator's view has the counts but no one's own rating.
        let moderator = h.room.view(for: nil, now: h.now)
        #expect(moderator.ratings?.likes == 1 && !moderator.jsonBytes().isEmpty)
        #expect(!String(decoding: moderator.jsonBytes(), as: UTF8.self).contains("myRating"))
        // Outside drawing and turnEnd there are no ratings in `room`.
        var lobby = RoomHarness()
        lobby.join("ada", "bob")
        #expect(lastRoom(lobby, "bob")?.ratings == nil)
        #expect(!ServerMessage.room(lastRoom(lobby, "bob")!).jsonString.contains("ratings"))
    }

    @Test func ratingsGoWithTheTurnAndChangesAtTurnEndUpdateIt() {
        var h = drawingRoom()
        h.send(.rate(.like), from: "bob")
        h.send(.skip, from: "ada")
        #expect(h.room.phase == .turnEnd)
        #expect(h.received("cy").contains { if case .turnEnd(_, _, _, let r, _) = $0 { r == RatingCounts(likes: 1, dislikes: 0) } else { false } })
        #expect(h.turns.last?.ratings == RatingCounts(likes: 1, dislikes: 0))
        #expect(h.ratingUpdates.isEmpty)
        h.send(.rate(.dislike), from: "cy")
        let update = h.ratingUpdates.last
        #expect(update?.counts == RatingCounts(likes: 1, dislikes: 1))
        #expect(update?.game == h.turns.last?.game && update?.turn == h.turns.last?.turn)
        // The next turn starts unrated; the last drawer may rate the new one.
        h.advance(until: .choosing)
        h.chooseFirst()
        #expect(h.room.phase == .drawing)
        #expect(lastRoom(h, "ada")?.ratings == RatingCounts())
        h.send(.rate(.like), from: "ada")
        #expect(h.errors("ada").isEmpty)
    }

    @Test func ratingsSurviveASnapshot() throws {
        var h = drawingRoom()
        h.send(.rate(.like), from: "bob")
        let snapshot = h.room.snapshot(now: h.now)
        let data = try JSONEncoder().encode(snapshot)
        let restored = try Room(
            restoring: try JSONDecoder().decode(RoomSnapshot.self, from: data), frames: [],
            configuration: h.room.configuration, now: h.now
        )
        #expect(restored.ratedTurn?.ratings == [PlayerID("bob"): .like])
        #expect(restored.view(for: PlayerID("bob"), now: h.now).myRating == .like)
    }

    // MARK: - Chat history

    /// The chat lines (no game events) of the last `chatHistory` `name` got.
    func history(_ h: RoomHarness, _ name: String) -> [ChatLine]? {
        h.received(name).reversed().lazy.compactMap { if case .chatHistory(let lines) = $0 { lines.filter { $0.kind == nil } } else { nil } }.first
    }

    @Test func aResumingPlayerGetsItsLinesRightAfterRoom() {
        var h = RoomHarness()
        h.join("ada", "bob")
        h.send(.chat("hello"), from: "ada")
        h.send(.chat("hi ada"), from: "bob")
        h.disconnect("bob")
        h.send(.chat("are you there?"), from: "ada")
        _ = h.take("bob")
        h.reconnect("bob")
        let received = h.received("bob")
        let roomIndex = received.firstIndex(where: \.isRoom)
        let historyIndex = received.firstIndex { if case .chatHistory = $0 { true } else { false } }
        #expect(roomIndex != nil && historyIndex == roomIndex.map { $0 + 1 })
        #expect(history(h, "bob")?.map(\.text) == ["hello", "hi ada", "are you there?"])
        #expect(history(h, "bob")?.first?.name == "ada")
        // A newcomer has no history from before it came.
        h.join("cy")
        h.disconnect("cy")
        h.reconnect("cy")
        #expect(history(h, "cy")?.isEmpty == true)
    }

    @Test func linesOnlyKnowersSawNeverComeBackToAGuesser() {
        var h = drawingRoom()
        h.send(.chat("elephant"), from: "bob")  // Bob guesses it
        h.send(.chat("too easy, a trunk"), from: "bob")  // to the drawer and Bob only
        h.send(.chat("a dog?"), from: "cy")  // to everyone
        h.disconnect("cy")
        h.reconnect("cy")
        h.disconnect("bob")
        h.reconnect("bob")
        #expect(history(h, "cy")?.map(\.text) == ["a dog?"])
        #expect(history(h, "bob")?.map(\.text) == ["too easy, a trunk", "a dog?"])
        // Still hidden from Cy after the turn ended.
        h.send(.skip, from: "ada")
        h.disconnect("cy")
        h.reconnect("cy")
        #expect(history(h, "cy")?.map(\.text) == ["a dog?"])
    }

    @Test func historyIsTheLastFiftyOldestFirst() {
        var h = RoomHarness()
        h.join("ada", "bob")
        for i in 0..<130 { h.send(.chat("line \(i)"), from: i % 2 == 0 ? "ada" : "bob") }
        h.disconnect("bob")
        h.reconnect("bob")
        let lines = history(h, "bob") ?? []
        #expect(lines.count == Room.chatHistoryLimit)
        #expect(lines.first?.text == "line 80" && lines.last?.text == "line 129")
        #expect(h.room.chatLog.count <= Room.chatLogLimit)
    }

    @Test func historySurvivesASnapshot() throws {
        var h = drawingRoom()
        h.send(.chat("elephant"), from: "bob")
        h.send(.chat("secret talk"), from: "bob")
        h.send(.chat("a dog?"), from: "cy")
        let data = try JSONEncoder().encode(h.room.snapshot(now: h.now))
        var restored = try Room(
            restoring: try JSONDecoder().decode(RoomSnapshot.self, from: data), frames: [],
            configuration: h.room.configuration, now: h.now
        )
        #expect(restored.chatHistory(for: PlayerID("cy")).filter { $0.kind == nil }.map(\.text) == ["a dog?"])
        #expect(restored.chatHistory(for: PlayerID("ada")).filter { $0.kind == nil }.map(\.text) == ["secret talk", "a dog?"])
        // After the restart every member resumes: one `turn` each, after `room` and the history.
        let effects = restored.connect(PlayerID("cy"), now: h.now)
        let toCy = effects.compactMap { effect -> String? in
            guard case .send(let message, let audience) = effect else { return nil }
            switch audience {
            case .player(let id) where id == PlayerID("cy"): return message.type
            case .everyone: return message.type
            case .players(let ids) where ids.contains(PlayerID("cy")): return message.type
            case .everyoneExcept(let id) where id != PlayerID("cy"): return message.type
            default: return nil
            }
        }
        #expect(toCy == ["room", "chatHistory", "gameDrawings", "turn", "canvas"])
    }

    // MARK: - Avatars

    @Test func membersCarryTheirAvatarsEverywhere() {
        var h = RoomHarness()
        let custom = Avatar(color: 11, eyes: 5, mouth: 0, accessory: 6)!
        _ = h.room.join(PlayerID("ada"), name: "ada", avatar: custom, now: h.now)
        h.connected.insert(PlayerID("ada"))
        h.join("bob")
        #expect(h.room.member(PlayerID("ada"))?.avatar == custom)
        #expect(h.room.member(PlayerID("bob"))?.avatar == Avatar.standard(for: PlayerID("bob")))
        let view = lastRoom(h, "bob")
        #expect(view?.players.first?.avatar == custom)
        #expect(ServerMessage.room(view!).jsonString.contains(#""avatar":{"color":11,"eyes":5,"mouth":0,"accessory":6}"#))
        // A resume may bring a new avatar.
        let other = Avatar(color: 1, eyes: 1, mouth: 1, accessory: 0)!
        h.disconnect("ada")
        h.apply(h.room.connect(PlayerID("ada"), avatar: other, now: h.now))
        #expect(h.room.member(PlayerID("ada"))?.avatar == other)
    }

    @Test func theRankingCarriesAvatars() {
        var h = drawingRoom()
        h.send(.skip, from: "ada")
        h.advance(until: .gameEnd, limitMs: 3_600_000)
        let ranking = h.games.last?.ranking ?? []
        #expect(ranking.count == 3 && ranking.allSatisfy { $0.avatar == Avatar.standard(for: $0.id) })
        let json = ServerMessage.gameEnd(ranking: ranking).jsonString
        #expect(json.components(separatedBy: "\"avatar\":{").count == 4)
    }
}
