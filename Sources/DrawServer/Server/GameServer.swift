import Canvas
import Logging
import NIOCore
import Rooms
import Synchronization

/// The shared heart of a running server: the lobby, the live rooms and the open
/// connections.
///
/// The lobby is a value type kept behind one lock and called synchronously, by
/// sessions and by room actors alike, so "a room released this player" and "this
/// player joins another room" are always seen in order. Room state lives in one actor
/// per room; the lock is never held across an `await`.
final class GameServer: Sendable {
    let configuration: ServerConfiguration
    let clock = ServerClock()
    let logger: Logger
    let events: any GameEventSink

    struct Directory: Sendable {
        var lobby: Lobby
        var rooms: [RoomCode: RoomActor] = [:]
        var outboxes: [ConnectionID: Outbox] = [:]
    }

    private let directory: Mutex<Directory>
    private let connectionCounter = Atomic<UInt64>(0)

    init(configuration: ServerConfiguration, logger: Logger, events: any GameEventSink = NoGameEvents()) {
        self.configuration = configuration
        self.logger = logger
        self.events = events
        let random: RandomSource = configuration.seed.map { .seeded($0) } ?? .system
        self.directory = Mutex(Directory(lobby: Lobby(random: random)))
    }

    // MARK: - Connections

    func newConnectionID() -> ConnectionID {
        ConnectionID(connectionCounter.add(1, ordering: .relaxed).newValue)
    }

    /// True once the connection's `hello` was accepted.
    func hasSaidHello(_ connection: ConnectionID) -> Bool {
        directory.withLock { $0.outboxes[connection] != nil }
    }

    var connectionCount: Int { directory.withLock { $0.outboxes.count } }

    /// `hello`: registers the connection, closes an older one of the same player with
    /// 4001, sends `welcome`, and puts a seated player back in its room.
    func hello(name: String, token: String?, connection: ConnectionID, outbox: Outbox) async -> Result<PlayerID, ProtocolError> {
        let now = clock.now
        let outcome: Result<(Welcome, Outbox?, RoomActor?), ProtocolError> = directory.withLock { d in
            d.lobby.hello(name: name, token: token, connection: connection, now: now).map { welcome in
                d.outboxes[connection] = outbox
                let replaced = welcome.replaced.flatMap { d.outboxes.removeValue(forKey: $0) }
                let room = welcome.player.room.flatMap { d.rooms[$0] }
                return (welcome, replaced, room)
            }
        }
        switch outcome {
        case .failure(let error):
            return .failure(error)
        case .success(let (welcome, replaced, room)):
            replaced?.close(code: 4001, reason: "replaced by a newer connection with the same token", flush: false)
            outbox.sendText(welcome.message.jsonBytes())
            await room?.attach(welcome.player.id, outbox: outbox)
            return .success(welcome.player.id)
        }
    }

    /// The connection closed: the player keeps its seat for the grace period.
    func connectionClosed(_ connection: ConnectionID, player: PlayerID?, outbox: Outbox) async {
        let now = clock.now
        let room: RoomActor? = directory.withLock { d in
            if d.outboxes[connection] === outbox { d.outboxes[connection] = nil }
            guard let player, d.lobby.players[player]?.connection == connection else { return nil }
            d.lobby.disconnected(player, connection: connection, now: now)
            return d.lobby.players[player]?.room.flatMap { d.rooms[$0] }
        }
        if let player, let room { await room.detach(player, outbox: outbox) }
    }

    // MARK: - Called by room actors (synchronously, never across an await)

    func seated(_ player: PlayerID, in code: RoomCode) {
        directory.withLock { $0.lobby.seated(player, in: code) }
    }

    func released(_ player: PlayerID, from code: RoomCode) {
        directory.withLock { $0.lobby.released(player, from: code) }
    }

    func update(_ summary: RoomSummary) {
        directory.withLock { d in
            // A closed room may still report once; it must not come back to life.
            if d.rooms[summary.code] != nil { d.lobby.update(summary) }
        }
    }

    func roomClosed(_ code: RoomCode) {
        directory.withLock { d in
            d.rooms[code] = nil
            d.lobby.removeRoom(code)
        }
    }

    // MARK: - Lookups

    func withLobby<T>(_ body: (inout Lobby) -> T) -> T {
        directory.withLock { body(&$0.lobby) }
    }

    /// The lobby, live rooms and connections under the lock; `body` must not block or await.
    func withDirectory<T>(_ body: (inout Directory) -> T) -> T {
        directory.withLock { body(&$0) }
    }

    func room(_ code: RoomCode) -> RoomActor? {
        directory.withLock { $0.rooms[code] }
    }

    func roomOf(_ player: PlayerID) -> RoomActor? {
        directory.withLock { d in d.lobby.players[player]?.room.flatMap { d.rooms[$0] } }
    }

    func outbox(of player: PlayerID) -> Outbox? {
        directory.withLock { d in d.lobby.players[player]?.connection.flatMap { d.outboxes[$0] } }
    }

    var allRooms: [RoomActor] { directory.withLock { Array($0.rooms.values) } }
    var allOutboxes: [Outbox] { directory.withLock { Array($0.outboxes.values) } }

    /// Creates a room actor under a fresh code (the caller then joins it).
    func makeRoom(for player: PlayerID, name: String, isPublic: Bool, settings: RoomSettings) -> Result<RoomActor, ProtocolError> {
        directory.withLock { d in
            d.lobby.newRoom(by: player).map { reserved in
                let room = Room(
                    code: reserved.code, name: name, isPublic: isPublic, settings: settings,
                    configuration: configuration.room, seed: reserved.seed
                )
                let actor = RoomActor(room: room, server: self)
                d.rooms[reserved.code] = actor
                d.lobby.update(room.summary)
                return actor
            }
        }
    }

    /// Adds a room restored from storage.
    func adopt(_ room: Room) -> RoomActor {
        let actor = RoomActor(room: room, server: self)
        directory.withLock { d in
            d.rooms[room.code] = actor
            d.lobby.update(room.summary)
        }
        return actor
    }
}

/// Where finished turns and games go (the database in production).
protocol GameEventSink: Sendable {
    func turnFinished(_ record: TurnRecord)
    func gameFinished(_ record: GameRecord)
}

/// Keeps nothing: for tests and tools that do not persist.
struct NoGameEvents: GameEventSink {
    func turnFinished(_ record: TurnRecord) {}
    func gameFinished(_ record: GameRecord) {}
}
