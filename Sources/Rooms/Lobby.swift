import DrawProtocol
import Foundation

/// Identifies one WebSocket connection, so a stale connection's disconnect cannot
/// unseat a player who already resumed on a newer one.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64
    public init(_ value: UInt64) { self.value = value }
    public var description: String { "#\(value)" }
}

/// What the lobby knows about a player.
public struct PlayerRecord: Sendable, Hashable {
    public let id: PlayerID
    public var name: String
    public var avatar: Avatar
    /// SHA-256 of the resume token, hex; the token itself is never kept.
    public let tokenHash: String
    public var room: RoomCode?
    public var connection: ConnectionID?
    public var lastSeen: Timestamp

    public init(
        id: PlayerID, name: String, avatar: Avatar? = nil, tokenHash: String, room: RoomCode? = nil,
        connection: ConnectionID? = nil, lastSeen: Timestamp
    ) {
        self.id = id
        self.name = name
        self.avatar = avatar ?? .standard(for: id)
        self.tokenHash = tokenHash
        self.room = room
        self.connection = connection
        self.lastSeen = lastSeen
    }

    public var isOnline: Bool { connection != nil }
}

/// The result of a successful `hello`.
public struct Welcome: Sendable, Hashable {
    public var player: PlayerRecord
    public var token: String
    public var resumed: Bool
    /// An older connection of the same player, to close with 4001.
    public var replaced: ConnectionID?

    public var message: ServerMessage {
        .welcome(playerID: player.id, token: token, resumed: resumed, name: player.name, avatar: player.avatar)
    }
}

/// Players, their resume tokens and which room each is in, and the directory of rooms.
///
/// A value type: the shell keeps it behind a lock and calls it synchronously, so a
/// room's "this player left" and a player's next "join" can never be reordered.
public struct Lobby: Sendable {
    public internal(set) var players: [PlayerID: PlayerRecord] = [:]
    private var byTokenHash: [String: PlayerID] = [:]
    public internal(set) var rooms: [RoomCode: RoomSummary] = [:]
    var random: RandomSource

    public static let nameLimit = 1...24
    public static let roomNameLimit = 1...40

    public init(random: RandomSource) {
        self.random = random
    }

    // MARK: - Session

    /// `hello`: a new player, or with a known token the same player again. A new player
    /// without an avatar gets its standard one; a resuming player's avatar is replaced only
    /// when the hello carries one.
    public mutating func hello(
        name rawName: String, token: String?, avatar: Avatar? = nil, connection: ConnectionID, now: Timestamp
    ) -> Result<Welcome, ProtocolError> {
        let name: String
        switch Self.validName(rawName) {
        case .success(let valid): name = valid
        case .failure(let error): return .failure(error.referencing("hello"))
        }
        if let token, token.utf8.count <= 128, let id = byTokenHash[TokenHash.hex(token)], var record = players[id] {
            let replaced = record.connection
            record.connection = connection
            record.lastSeen = now
            // A resuming player outside any room may pick a new name; a seated one keeps
            // the name the room knows it by.
            if record.room == nil { record.name = name }
            if let avatar { record.avatar = avatar }
            players[id] = record
            return .success(Welcome(player: record, token: token, resumed: true, replaced: replaced))
        }
        let token = random.string(count: 32, from: Self.tokenAlphabet)
        var id: PlayerID
        repeat { id = PlayerID(random.string(count: 10, from: Self.idAlphabet)) } while players[id] != nil
        let record = PlayerRecord(id: id, name: name, avatar: avatar, tokenHash: TokenHash.hex(token), connection: connection, lastSeen: now)
        add(record)
        return .success(Welcome(player: record, token: token, resumed: false, replaced: nil))
    }

    /// The connection closed. Ignored if the player has since resumed on another connection.
    public mutating func disconnected(_ id: PlayerID, connection: ConnectionID, now: Timestamp) {
        guard players[id]?.connection == connection else { return }
        players[id]?.connection = nil
        players[id]?.lastSeen = now
    }

    /// Names: 1 to 24 characters after trimming, no control characters.
    public static func validName(_ raw: String) -> Result<String, ProtocolError> {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLimit.contains(name.count) else {
            return .failure(ProtocolError(.badName, "a name has 1 to 24 characters"))
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0 != "\u{200D}" }) else {
            return .failure(ProtocolError(.badName, "a name cannot contain control characters"))
        }
        return .success(name)
    }

    /// 64 symbols: 32 characters carry 192 random bits.
    static let tokenAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    /// Public ids are lower-case and unambiguous, easy to read out to a friend.
    static let idAlphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    // MARK: - Records (also used when restoring from the database)

    /// Whether a player with this token's hash is known here.
    public func knows(tokenHash: String) -> Bool { byTokenHash[tokenHash] != nil }

    /// The player holding the token with this hash, when known here.
    public func player(tokenHash: String) -> PlayerID? { byTokenHash[tokenHash] }

    /// Adds or replaces a player record.
    public mutating func add(_ record: PlayerRecord) {
        if let old = players[record.id] { byTokenHash[old.tokenHash] = nil }
        players[record.id] = record
        byTokenHash[record.tokenHash] = record.id
    }

    /// Forgets offline players outside any room not seen since `cutoff`; returns their ids.
    public mutating func forgetIdlePlayers(seenBefore cutoff: Timestamp) -> [PlayerID] {
        let idle = players.values.filter { $0.connection == nil && $0.room == nil && $0.lastSeen < cutoff }.map(\.id)
        for id in idle {
            if let hash = players[id]?.tokenHash { byTokenHash[hash] = nil }
            players[id] = nil
        }
        return idle
    }
}
