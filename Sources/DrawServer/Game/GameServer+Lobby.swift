import DrawProtocol
import Foundation
import Rooms

extension GameServer {
    /// `create`: a new room with the sender as host.
    func create(by player: PlayerID, name rawName: String?, isPublic: Bool, settings patch: SettingsPatch, outbox: Outbox) -> ProtocolError? {
        guard let record = withLobby({ $0.players[player] }) else { return ProtocolError(.badMessage, "say hello first") }
        let name: String
        if let rawName, !rawName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard Lobby.roomNameLimit.contains(name.count) else {
                return ProtocolError(.badMessage, "a room name has 1 to 40 characters")
            }
            guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return ProtocolError(.badMessage, "a room name cannot contain control characters")
            }
        } else {
            name = String("\(record.name)'s room".prefix(Lobby.roomNameLimit.upperBound))
        }
        if let refusal = store.newRoomRefusal { return refusal }
        let settings = RoomSettings().applying(patch)
        let adjusted = RoomSettings().adjustments(for: patch)
        switch makeRoom(for: player, name: name, isPublic: isPublic, settings: settings) {
        case .failure(let error):
            return error
        case .success(let room):
            if let error = room.join(player, name: record.name, outbox: outbox) { return error }
            // After the room: the host learns which of its values were out of range.
            if !adjusted.isEmpty { send(.notice(.settingsAdjusted(adjusted)), to: outbox) }
            return nil
        }
    }

    /// `join` by code. `askedTheStore`: the store was asked already (a second try for a room
    /// that came to this node meanwhile): a miss now is `room_not_found`.
    func join(_ player: PlayerID, code text: String, watching: Bool = false, outbox: Outbox, askedTheStore: Bool = false) -> ProtocolError? {
        let clustered = remoteRooms.looksUpPlayers
        let found: Result<(LiveRoom, String), ProtocolError>? = withDirectory { d in
            guard let record = d.lobby.players[player] else { return .failure(ProtocolError(.badMessage, "say hello first")) }
            // Several nodes: already seated there (a client that followed a `redirect` was
            // put back in its room by its hello, then joins as the redirect says): nothing
            // to do. One node keeps answering `already_in_room`.
            if clustered, let current = record.room, current == RoomCode(parsing: text) { return nil }
            return d.lobby.findRoom(text, for: player).flatMap { code in
                guard let room = d.rooms[code] else { return .failure(ProtocolError(.roomNotFound, "no room with code \(code)")) }
                return .success((room, record.name))
            }
        }
        guard let found else { return nil }
        switch found {
        case .failure(let error):
            // Run by another node: the client reconnects there (through the balancer) and
            // joins again.
            guard error.code == .roomNotFound, let code = RoomCode(parsing: text) else { return error }
            if let node = remoteRooms.owner(of: code) {
                remoteRooms.sendRedirect(room: code, node: node, to: outbox)
                return nil
            }
            // Not in the directory yet (made on another node since its last refresh, or
            // moving off a draining node): the store says, and the answer follows.
            guard remoteRooms.looksUpOwners, !askedTheStore else { return error }
            let (remoteRooms, refusal) = (self.remoteRooms, error.withRef("join"))
            Task {
                if let node = await remoteRooms.findOwner(of: code, isHere: { self.room($0) != nil }) {
                    remoteRooms.sendRedirect(room: code, node: node, to: outbox)
                } else if self.room(code) != nil {
                    // Taken over by this node meanwhile (from a node that drained or died).
                    if let refused = self.join(player, code: text, watching: watching, outbox: outbox, askedTheStore: true) {
                        self.send(.error(refused.withRef("join")), to: outbox)
                    }
                } else {
                    self.send(.error(refusal), to: outbox)
                }
            }
            return nil
        case .success(let (room, name)): return room.join(player, name: name, watching: watching, outbox: outbox)
        }
    }

    /// `quickplay`: the fullest public room in `lobby` with a free seat, else a new public room.
    func quickplay(_ player: PlayerID, outbox: Outbox, remoteIP: String) -> ProtocolError? {
        let lookup: Result<(String, [RoomCode]), ProtocolError> = withLobby { lobby in
            guard let record = lobby.players[player] else { return .failure(ProtocolError(.badMessage, "say hello first")) }
            if let current = record.room { return .failure(ProtocolError(.alreadyInRoom, "you are in room \(current); leave it first")) }
            return .success((record.name, lobby.quickplayCandidates()))
        }
        guard case .success(let (name, candidates)) = lookup else {
            if case .failure(let error) = lookup { return error }
            return nil
        }
        for code in candidates {
            guard let room = room(code) else { continue }
            // Another player may have taken the last seat meanwhile: try the next room.
            if room.join(player, name: name, outbox: outbox) == nil { return nil }
        }
        // Another node's public room with a seat: the client follows `redirect` and joins it.
        if let (code, node) = remoteRooms.quickplayCandidate {
            remoteRooms.sendRedirect(room: code, node: node, to: outbox)
            return nil
        }
        guard allowRoomCreation(from: remoteIP) else {
            return ProtocolError(.rateLimited, "too many rooms created from your address; try again in a minute")
        }
        return create(by: player, name: nil, isPublic: true, settings: SettingsPatch(), outbox: outbox)
    }

    /// `leave`.
    func leave(_ player: PlayerID) -> ProtocolError? {
        guard let room = roomOf(player) else { return ProtocolError(.notInRoom, "you are not in a room") }
        room.leave(player)
        return nil
    }

    /// `invite`: the invitee gets `invited` if online, here or (on a shared store) on
    /// another node; otherwise `not_online` (from another node: when none delivered it in
    /// time, `ClusterRouter.Configuration.inviteTimeout`).
    func invite(_ target: PlayerID, from player: PlayerID) -> ProtocolError? {
        let result: Result<(ServerMessage, Outbox?), ProtocolError> = withDirectory { d in
            d.lobby.invite(target, from: player).map { ($0.message, d.outboxes[$0.to]) }
        }
        switch result {
        case .failure(let error):
            guard error.code == .notOnline, let text = remoteInvitation(from: player) else { return error }
            return remoteRooms.forwardInvite(target, from: player, text: text) ? nil : error
        case .success(let (message, outbox)):
            guard let outbox else { return ProtocolError(.notOnline, "that player is not online") }
            send(message, to: outbox)
            return nil
        }
    }

    /// The `invited` message `player` sends from its room, encoded for another node.
    private func remoteInvitation(from player: PlayerID) -> String? {
        withLobby { lobby in
            guard let sender = lobby.players[player], let code = sender.room else { return nil }
            return ServerMessage.invited(from: player, name: sender.name, code: code, avatar: sender.avatar).jsonString
        }
    }

    /// Room-level messages (settings, ready, chat...) go to the sender's room.
    func roomMessage(_ message: ClientMessage, from player: PlayerID) -> ProtocolError? {
        guard let room = roomOf(player) else {
            return ProtocolError(.notInRoom, "you are not in a room", ref: message.type)
        }
        room.handle(message, from: player)
        return nil
    }

    /// This node's public rooms and, on a shared store, the other nodes'.
    func publicRooms() -> [RoomSummary] {
        let remote = remoteRooms.publicRooms
        return withLobby { remote.isEmpty ? $0.publicRooms() : $0.publicRooms(including: remote) }
    }
}
