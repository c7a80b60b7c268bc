import Rooms
import Synchronization

/// The shell's moderation state, each part behind its own small lock (a leaf lock: no
/// other lock is taken while one is held, so rooms may call in under theirs):
/// players' gallery opt-outs, moderator bans and the open reports.
final class Moderation: Sendable {
    struct Configuration: Sendable {
        var reports = ReportDesk.Configuration()
        /// How long a moderator's ban lasts (docs/PROTOCOL.md section 9: "Ban").
        var banMs = 24 * 3_600_000
    }

    let configuration: Configuration
    private let desk: Mutex<ReportDesk>
    /// Players who asked to keep their drawings off the public gallery (`gallery`
    /// message). In memory: the client remembers the setting and sends it after every
    /// `welcome`, so it survives restarts on the client's side.
    private let optedOut = Mutex<Set<PlayerID>>([])
    /// Banned players and when their ban ends (server clock).
    private let bans = Mutex<[PlayerID: Timestamp]>([:])

    init(configuration: Configuration = Configuration(), random: RandomSource = .system) {
        self.configuration = configuration
        self.desk = Mutex(ReportDesk(configuration: configuration.reports, random: random))
    }

    // MARK: - Gallery opt-out

    func setListed(_ listed: Bool, for player: PlayerID) {
        optedOut.withLock { set in
            if listed { set.remove(player) } else { set.insert(player) }
        }
    }

    func hasOptedOut(_ player: PlayerID) -> Bool { optedOut.withLock { $0.contains(player) } }

    // MARK: - Bans

    func ban(_ player: PlayerID, now: Timestamp) {
        bans.withLock { $0[player] = now + configuration.banMs }
    }

    /// True while the player's ban runs; an expired ban is forgotten.
    func isBanned(_ player: PlayerID, now: Timestamp) -> Bool {
        bans.withLock { b in
            guard let until = b[player] else { return false }
            if until <= now { b[player] = nil; return false }
            return true
        }
    }

    // MARK: - Reports

    func withDesk<T>(_ body: (inout ReportDesk) -> T) -> T { desk.withLock { body(&$0) } }

    /// The store reports are kept in (set once by the runtime), or nil: memory only.
    private let archiveSlot = Mutex<(any ReportArchive)?>(nil)
    var archive: (any ReportArchive)? { archiveSlot.withLock { $0 } }
    func useArchive(_ archive: (any ReportArchive)?) { archiveSlot.withLock { $0 = archive } }

    /// Open reports, newest first: the store's, and any the store could not take (kept in
    /// memory since), so a failing store hides none.
    func openReports() async throws -> [ReportDesk.Report] {
        let memory = withDesk { $0.open }
        guard let archive else { return memory.reversed() }
        var reports = try await archive.openReports(limit: configuration.reports.maxOpen)
        let stored = Set(reports.map(\.id))
        let closed = withDesk { $0.closed }
        reports += memory.filter { !stored.contains($0.id) && !closed.contains($0.id) && !$0.stored }
        return reports.sorted { $0.filedAtMs > $1.filedAtMs }
    }

    func openReport(_ id: String) async throws -> ReportDesk.Report? {
        if let archive, let report = try await archive.openReport(id) { return report }
        return withDesk { $0.report(id) }
    }

    /// Closes a report everywhere; false when it was open nowhere.
    func closeReport(_ id: String, action: String) async throws -> Bool {
        let inMemory = withDesk { $0.close(id) != nil }
        let inStore = try await archive?.closeReport(id, action: action) ?? false
        return inMemory || inStore
    }

    func closeReports(about drawing: DrawingID) async throws {
        withDesk { $0.closeAll(about: drawing) }
        try await archive?.closeReports(about: drawing)
    }
}
