import Canvas
import DrawProtocol
import Logging
import Rooms
import Synchronization
@testable import DrawServer

/// A PostgreSQL store with the persistence writer that commits to it running, as a node
/// has them: the game's changes go through the writer, the rest to the store.
@dynamicMemberLookup
final class WrittenStore: Sendable {
    let store: PostgresGameStore
    let writer: PersistenceWriter
    private let running: Task<Void, any Error>

    /// `backend` wraps the store for a test that scripts failures (`AnswerLost`).
    init(_ store: PostgresGameStore, backend: (any StorageBackend)? = nil, configuration: PersistenceWriter.Configuration = WrittenStore.quick) {
        self.store = store
        let writer = PersistenceWriter(
            backend: backend ?? store, configuration: configuration, metrics: ServerMetrics(), logger: TestPostgres.logger, clock: store.clock
        )
        self.writer = writer
        running = Task { try await writer.run() }
    }

    /// Retries a held batch soon, so a test does not wait out the default backoff.
    static var quick: PersistenceWriter.Configuration {
        var configuration = PersistenceWriter.Configuration()
        configuration.health.firstRetry = .milliseconds(20)
        configuration.health.maxRetry = .milliseconds(200)
        configuration.exitPatience = .seconds(2)
        return configuration
    }

    subscript<T>(dynamicMember keyPath: KeyPath<PostgresGameStore, T>) -> T { store[keyPath: keyPath] }

    func playerChanged(_ record: PlayerRecord) { writer.playerChanged(record) }
    func roomChanged(_ snapshot: RoomSnapshot) { writer.roomChanged(snapshot) }
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame) {
        writer.frameAppended(room: room, generation: generation, frame: frame)
    }
    func roomClosed(_ code: RoomCode) { writer.roomClosed(code) }
    func turnFinished(_ record: TurnRecord) { writer.turnFinished(record) }
    func gameFinished(_ record: GameRecord) { writer.gameFinished(record) }

    /// Returns once everything queued so far is committed (true) or held after a failure.
    @discardableResult
    func commitPending() async -> Bool { await writer.flush() }

    /// The writer's counts, and the rooms the store fenced.
    struct Statistics {
        var commits: Int
        var failedCommits: Int
        var changes: Int
        var fencedRooms: Int
    }

    var statistics: Statistics {
        let written = writer.statistics
        return Statistics(
            commits: written.commits, failedCommits: written.failedCommits, changes: written.changes, fencedRooms: store.statistics.fencedRooms
        )
    }

    /// Changes waiting or held, none once everything is written.
    var pendingCount: Int { writer.waitingCount + writer.storageReport.heldChanges }

    func load() async throws -> StoredState { try await store.load() }
    func tickLeases() { store.tickLeases() }
    func refreshDirectory(playersSince: Int64, reads: inout PostgresGameStore.DirectoryReads) async -> RemoteRooms.Directory? {
        await store.refreshDirectory(playersSince: playersSince, reads: &reads)
    }

    /// Stops the writer (it commits what it has), then the store.
    func close() async {
        running.cancel()
        _ = await running.result
        await store.close()
    }
}

/// A backend that passes every commit on to the store, but for the ones told to lose
/// their answer: committed (`afterCommit`) or not (`beforeCommit`), the writer is told
/// the connection dropped, as when a primary is lost around its `COMMIT`.
final class AnswerLost: StorageBackend {
    enum When { case beforeCommit, afterCommit }
    let store: PostgresGameStore
    private let script = Mutex<[When]>([])
    struct Dropped: Error {}

    init(_ store: PostgresGameStore) { self.store = store }

    func loseNext(_ when: When) { script.withLock { $0.append(when) } }

    func commit(_ batch: StorageBatch, behind: Bool) async throws -> StorageCommit {
        switch script.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
        case .beforeCommit?:
            throw Dropped()
        case .afterCommit?:
            _ = try await store.commit(batch, behind: behind)
            throw Dropped()
        case nil:
            return try await store.commit(batch, behind: behind)
        }
    }

    func fault(for error: any Error) -> StorageFault { store.fault(for: error) }
    func mayHaveCommitted(_ error: any Error) -> Bool { store.mayHaveCommitted(error) }
    func holding(rooms: Set<RoomCode>) { store.holding(rooms: rooms) }
    var stallLimit: Duration? { store.stallLimit }
}

extension LostRooms {
    convenience init(of node: WrittenStore) { self.init(of: node.store) }
}
