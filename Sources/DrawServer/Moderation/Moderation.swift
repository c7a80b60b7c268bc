import DrawProtocol
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
    /// message). Kept in the store too (`ModerationArchive`), so a restart and, on a shared
    /// store, every node know it; the client also sends it after every `welcome`.
    private let optedOut = Mutex<Set<PlayerID>>([])
    /// Banned players and when their ban ends (server clock).
    private let bans = Mutex<[PlayerID: Timestamp]>([:])
    /// Turns that ended lately and their drawing (nil: an empty canvas), and the turns
    /// reported while being drawn, so such reports are linked to the drawing.
    private let turns = Mutex(TurnLinks())

    /// The store bans and gallery settings are kept in, or nil: memory only.
    let store: (any ModerationArchive)?
    /// The store reports are kept in, or nil: memory only.
    let archive: (any ReportArchive)?

    init(
        configuration: Configuration = Configuration(), random: RandomSource = .system,
        store: (any ModerationArchive)? = nil, archive: (any ReportArchive)? = nil
    ) {
        self.configuration = configuration
        self.desk = Mutex(ReportDesk(configuration: configuration.reports, random: random))
        self.store = store
        self.archive = archive
    }

    // MARK: - Gallery opt-out

    /// Keeps the setting in memory at once (the store's write follows: `persistListed`);
    /// false when it was already so.
    @discardableResult
    func setListed(_ listed: Bool, for player: PlayerID) -> Bool {
        optedOut.withLock { set in
            listed ? set.remove(player) != nil : set.insert(player).inserted
        }
    }

    /// Writes the player's setting as it is when the write starts, so quick toggles end
    /// with the last one stored.
    func persistListed(for player: PlayerID) async throws {
        guard let store else { return }
        try await store.storeListed(!hasOptedOut(player), for: player)
    }

    func hasOptedOut(_ player: PlayerID) -> Bool { optedOut.withLock { $0.contains(player) } }

    // MARK: - Bans

    /// Bans the player for `banMs` from `now` (server clock), in memory: refused here at once.
    func ban(_ player: PlayerID, now: Timestamp) {
        bans.withLock { $0[player] = now + configuration.banMs }
    }

    /// Stores a ban made at wall-clock `wallMs` (its end as `wallMs + banMs`), so that it
    /// survives a restart and other nodes read it.
    func storeBan(_ player: PlayerID, wallMs: Int64) async throws {
        try await store?.storeBan(player, untilMs: wallMs + Int64(configuration.banMs))
    }

    /// True while the player's ban runs; an expired ban is forgotten.
    func isBanned(_ player: PlayerID, now: Timestamp) -> Bool {
        bans.withLock { b in
            guard let until = b[player] else { return false }
            if until <= now { b[player] = nil; return false }
            return true
        }
    }

    /// Takes bans and settings read from the store (at start-up, or made on another node);
    /// `now` and `wallMs` are the same instant on the server and the wall clock. Returns
    /// the players whose ban is new here, for the caller to remove from their rooms.
    @discardableResult
    func apply(_ changes: ModerationChanges, now: Timestamp, wallMs: Int64) -> [PlayerID] {
        let banned = bans.withLock { b -> [PlayerID] in
            var added: [PlayerID] = []
            for (player, untilMs) in changes.bans {
                guard untilMs > wallMs else { b[player] = nil; continue }
                if b[player].map({ $0 <= now }) ?? true { added.append(player) }
                b[player] = now + Int(untilMs - wallMs)
            }
            return added
        }
        optedOut.withLock { set in
            for (player, listed) in changes.listed {
                if listed { set.remove(player) } else { set.insert(player) }
            }
        }
        return banned.sorted()
    }

    // MARK: - Reports about a turn still being drawn

    /// A report of the canvas during `turn` is about to be filed: notes it, and returns
    /// the turn's drawing when the turn has already ended (`.some(nil)`: empty canvas).
    func reporting(_ turn: TurnKey) -> DrawingID?? {
        turns.withLock { t in
            // Turns of rooms closed mid-turn never end: forget them all past the bound.
            if t.reported.count >= TurnLinks.kept { t.reported.removeAll() }
            t.reported.insert(turn)
            return t.finished[turn]
        }
    }

    /// How a turn ended, when it ended lately (`.some(nil)`: empty canvas).
    func finished(_ turn: TurnKey) -> DrawingID?? { turns.withLock { $0.finished[turn] } }

    /// The turn ended (called by its room, under its lock): open reports made here while it
    /// was drawn name its drawing now (in memory; the store links its rows with the turn).
    func turnFinished(_ turn: TurnKey, drawing: DrawingID?) {
        let reported = turns.withLock { $0.end(turn, drawing: drawing) }
        if reported { withDesk { $0.link(turn, to: drawing) } }
    }

    // MARK: - Reports

    func withDesk<T>(_ body: (inout ReportDesk) -> T) -> T { desk.withLock { body(&$0) } }

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
        _ = withDesk { $0.closeAll(about: drawing) }
        try await archive?.closeReports(about: drawing)
    }
}
