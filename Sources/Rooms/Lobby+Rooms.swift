import DrawProtocol

extension Lobby {
    /// Public rooms, fullest first, for `rooms` and `GET /api/rooms`. A room where no person
    /// is connected is left out until someone is back: offered, it would seat a newcomer
    /// among ghosts (a room restored after a restart whose players are still in their grace).
    public func publicRooms() -> [RoomSummary] {
        rooms.values.filter(\.isListed).sorted(by: Self.listOrder)
    }

    /// The public rooms here and those other nodes run (`remote`, from the shared store),
    /// in the list's order.
    public func publicRooms(including remote: [RoomSummary]) -> [RoomSummary] {
        (rooms.values.filter(\.isListed) + remote.filter { $0.isListed && rooms[$0.code] == nil }).sorted(by: Self.listOrder)
    }

    /// Every room, for moderators.
    public func allRooms() -> [RoomSummary] {
        rooms.values.sorted(by: Self.listOrder)
    }

    private static func listOrder(_ a: RoomSummary, _ b: RoomSummary) -> Bool {
        a.players != b.players ? a.players > b.players : a.code < b.code
    }

    /// Reserves a fresh, unused room code and a seed for a new room's own generator.
    public mutating func newRoom(by id: PlayerID) -> Result<(code: RoomCode, seed: UInt64), ProtocolError> {
        guard let player = players[id] else { return .failure(ProtocolError(.badMessage, "say hello first")) }
        if let current = player.room {
            return .failure(ProtocolError(.alreadyInRoom, "you are in room \(current); leave it first"))
        }
        var code: RoomCode
        repeat {
            code = RoomCode(trusted: random.string(count: RoomCode.length, from: RoomCode.alphabet))
        } while rooms[code] != nil
        return .success((code, random.next()))
    }

    /// Looks up a room by user input (case-insensitive) for `join`.
    public func findRoom(_ text: String, for id: PlayerID) -> Result<RoomCode, ProtocolError> {
        if let current = players[id]?.room {
            return .failure(ProtocolError(.alreadyInRoom, "you are in room \(current); leave it first"))
        }
        guard let code = RoomCode(parsing: text), rooms[code] != nil else {
            return .failure(ProtocolError(.roomNotFound, "no room with code \(text.prefix(12))"))
        }
        return .success(code)
    }

    /// Quickplay candidates: listed rooms in `lobby` with a free seat, the most people
    /// connected first, then the fullest. Never a room where nobody is connected.
    public func quickplayCandidates() -> [RoomCode] {
        rooms.values
            .filter(\.isQuickplayCandidate)
            .sorted(by: RoomSummary.quickplayOrder)
            .map(\.code)
    }

    /// Records that a room accepted the player.
    public mutating func seated(_ id: PlayerID, in code: RoomCode) {
        players[id]?.room = code
    }

    /// Records that the player left the room (only if that is the room it is in).
    public mutating func released(_ id: PlayerID, from code: RoomCode) {
        if players[id]?.room == code { players[id]?.room = nil }
    }

    /// The directory entry of a live room, updated by its room after every change.
    public mutating func update(_ summary: RoomSummary) {
        rooms[summary.code] = summary
    }

    public mutating func removeRoom(_ code: RoomCode) {
        rooms[code] = nil
        for (id, record) in players where record.room == code { players[id]?.room = nil }
    }

    /// `invite`: the invitee's connection if it is online.
    public func invite(_ target: PlayerID, from id: PlayerID) -> Result<(message: ServerMessage, to: ConnectionID), ProtocolError> {
        guard let sender = players[id], let code = sender.room else {
            return .failure(ProtocolError(.notInRoom, "join a room before inviting"))
        }
        guard target != id else { return .failure(ProtocolError(.badMessage, "you cannot invite yourself")) }
        guard let invitee = players[target], let connection = invitee.connection else {
            return .failure(ProtocolError(.notOnline, "that player is not online"))
        }
        return .success((.invited(from: id, name: sender.name, code: code, avatar: sender.avatar), connection))
    }
}
