import DrawProtocol
import Testing
@testable import Rooms

@Suite("Lobby")
struct LobbyTests {
    var lobby = Lobby(random: .seeded(1))
    let now = Timestamp(milliseconds: 0)

    mutating func hello(_ name: String, token: String? = nil, connection: UInt64 = 1) -> Welcome? {
        try? lobby.hello(name: name, token: token, connection: ConnectionID(connection), now: now).get()
    }

    @Test mutating func helloValidatesNames() {
        for bad in ["", "   ", String(repeating: "n", count: 25), "a\u{0007}b"] {
            let result = lobby.hello(name: bad, token: nil, connection: ConnectionID(1), now: now)
            #expect((try? result.get()) == nil)
            if case .failure(let error) = result { #expect(error.code == .badName) }
        }
        #expect(hello("  Ada  ")?.player.name == "Ada")
        #expect(hello(String(repeating: "é", count: 24)) != nil)
    }

    @Test mutating func tokensAreLongRandomAndOnlyHashedAtRest() throws {
        let welcome = try #require(hello("Ada"))
        #expect(welcome.token.count == 32)
        #expect(!welcome.resumed)
        #expect(welcome.player.tokenHash == TokenHash.hex(welcome.token))
        #expect(welcome.player.tokenHash != welcome.token)
        let other = try #require(hello("Bob", connection: 2))
        #expect(other.token != welcome.token)
        #expect(other.player.id != welcome.player.id)
    }

    @Test mutating func resumeGivesTheSameIdAndReplacesTheOldConnection() throws {
        let first = try #require(hello("Ada", connection: 1))
        let again = try #require(hello("Ada", token: first.token, connection: 2))
        #expect(again.resumed)
        #expect(again.player.id == first.player.id)
        #expect(again.replaced == ConnectionID(1))
        let stranger = try #require(hello("Eve", token: "not-a-token", connection: 3))
        #expect(!stranger.resumed)
    }

    @Test mutating func staleDisconnectIsIgnored() throws {
        let first = try #require(hello("Ada", connection: 1))
        _ = hello("Ada", token: first.token, connection: 2)
        lobby.disconnected(first.player.id, connection: ConnectionID(1), now: now)
        #expect(lobby.players[first.player.id]?.connection == ConnectionID(2))
        lobby.disconnected(first.player.id, connection: ConnectionID(2), now: now)
        #expect(lobby.players[first.player.id]?.isOnline == false)
    }

    @Test mutating func roomCodesUseTheUnambiguousAlphabet() throws {
        let ada = try #require(hello("Ada"))
        var codes: Set<RoomCode> = []
        for _ in 0..<200 {
            let code = try lobby.newRoom(by: ada.player.id).get().code
            #expect(code.rawValue.count == 6)
            #expect(code.rawValue.allSatisfy { RoomCode.alphabet.contains($0) })
            lobby.update(RoomSummary(code: code, name: "r", isPublic: true, players: 0, maxPlayers: 8, phase: .lobby))
            codes.insert(code)
        }
        #expect(codes.count == 200)
        #expect(RoomCode(parsing: "abcdef")?.rawValue == "ABCDEF")
        #expect(RoomCode(parsing: "ABCDE0") == nil, "0 is not in the alphabet")
        #expect(RoomCode(parsing: "ABCDEFG") == nil)
    }

    @Test mutating func quickplayPrefersTheFullestOpenPublicRoom() {
        func summary(_ code: String, _ players: Int, _ max: Int = 8, _ phase: GamePhase = .lobby, _ isPublic: Bool = true) -> RoomSummary {
            RoomSummary(code: RoomCode(parsing: code)!, name: code, isPublic: isPublic, players: players, maxPlayers: max, phase: phase)
        }
        lobby.update(summary("AAAAAA", 2))
        lobby.update(summary("BBBBBB", 5))
        lobby.update(summary("CCCCCC", 8))
        lobby.update(summary("DDDDDD", 7, 8, .drawing))
        lobby.update(summary("EEEEEE", 6, 8, .lobby, false))
        #expect(lobby.quickplayCandidates().map(\.rawValue) == ["BBBBBB", "AAAAAA"])
        #expect(lobby.publicRooms().map(\.code.rawValue) == ["CCCCCC", "DDDDDD", "BBBBBB", "AAAAAA"])
    }

    /// A room restored after a restart whose players are all still in their grace has
    /// nobody connected: quick play must never seat a newcomer there, nor the list offer it.
    @Test mutating func quickplayAndTheListSkipRoomsWhereNobodyIsConnected() {
        func summary(_ code: String, players: Int, connected: Int, bots: Int = 0) -> RoomSummary {
            RoomSummary(code: RoomCode(parsing: code)!, name: code, isPublic: true, players: players, maxPlayers: 8, phase: .lobby, bots: bots, connected: connected)
        }
        lobby.update(summary("GGGGGG", players: 3, connected: 0))
        lobby.update(summary("HHHHHH", players: 3, connected: 0, bots: 2))
        lobby.update(summary("AAAAAA", players: 4, connected: 1))
        lobby.update(summary("BBBBBB", players: 2, connected: 2))
        #expect(lobby.quickplayCandidates().map(\.rawValue) == ["BBBBBB", "AAAAAA"])
        #expect(lobby.publicRooms().map(\.code.rawValue) == ["AAAAAA", "BBBBBB"])
        // Moderators still see every room.
        #expect(lobby.allRooms().count == 4)
        // Someone comes back: the room is offered again.
        lobby.update(summary("GGGGGG", players: 3, connected: 1))
        #expect(lobby.quickplayCandidates().contains(RoomCode(parsing: "GGGGGG")!))
        let remote = [summary("RRRRRR", players: 5, connected: 0)]
        #expect(!lobby.publicRooms(including: remote).map(\.code.rawValue).contains("RRRRRR"))
    }

    @Test mutating func theRoomListMergesOtherNodesPublicRooms() {
        func summary(_ code: String, _ players: Int, isPublic: Bool = true) -> RoomSummary {
            RoomSummary(code: RoomCode(parsing: code)!, name: code, isPublic: isPublic, players: players, maxPlayers: 8, phase: .lobby)
        }
        lobby.update(summary("AAAAAA", 2))
        lobby.update(summary("BBBBBB", 5, isPublic: false))
        let remote = [summary("RRRRRR", 3), summary("SSSSSS", 1, isPublic: false), summary("AAAAAA", 7)]
        // Another node's private room is not listed; a code this node runs is its own entry.
        #expect(lobby.publicRooms(including: remote).map(\.code.rawValue) == ["RRRRRR", "AAAAAA"])
        #expect(lobby.publicRooms(including: remote).last?.players == 2)
    }

    @Test mutating func joinAndInviteRules() throws {
        let ada = try #require(hello("Ada", connection: 1))
        let bob = try #require(hello("Bob", connection: 2))
        let code = RoomCode(parsing: "ABCDEF")!
        lobby.update(RoomSummary(code: code, name: "r", isPublic: false, players: 1, maxPlayers: 8, phase: .lobby))
        #expect((try? lobby.findRoom("abcdef", for: ada.player.id).get()) == code)
        #expect((try? lobby.findRoom("ZZZZZZ", for: ada.player.id).get()) == nil)
        lobby.seated(ada.player.id, in: code)
        if case .failure(let error) = lobby.findRoom("ABCDEF", for: ada.player.id) { #expect(error.code == .alreadyInRoom) }
        let invite = try lobby.invite(bob.player.id, from: ada.player.id).get()
        #expect(invite.to == ConnectionID(2))
        #expect(invite.message == .invited(from: ada.player.id, name: "Ada", code: code, avatar: ada.player.avatar))
        lobby.disconnected(bob.player.id, connection: ConnectionID(2), now: now)
        if case .failure(let error) = lobby.invite(bob.player.id, from: ada.player.id) { #expect(error.code == .notOnline) }
        lobby.released(ada.player.id, from: code)
        #expect(lobby.players[ada.player.id]?.room == nil)
    }
}

@Suite("SHA-256")
struct TokenHashTests {
    @Test func knownVectors() {
        #expect(TokenHash.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(TokenHash.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(TokenHash.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
