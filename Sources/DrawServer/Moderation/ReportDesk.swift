import Canvas
import DrawProtocol
import Rooms

/// Players' reports waiting for a moderator, with the evidence captured when each was made,
/// and every player's report budget. A pure value: the time comes in, nothing is read or
/// written outside it (`Moderation` keeps it behind a lock).
struct ReportDesk: Sendable {
    struct Configuration: Sendable {
        /// Reports a player may make: 5 per 10 minutes, per player (not per connection, so
        /// reconnecting does not refill it).
        var rate = Rate(5, perMs: 600_000)
        /// Open reports kept; past this the oldest is dropped, so reports cannot grow memory.
        var maxOpen = 500
    }

    struct Report: Sendable {
        var id: String
        /// Milliseconds since 1970, for people.
        var filedAtMs: Int64
        var reason: ReportReason
        var reporter: PlayerID
        var reporterName: String
        /// The player the report is about (the line's author, the drawer), when known.
        var reported: PlayerID?
        var reportedName: String?
        var room: RoomCode?
        /// The reported drawing's id; nil for a chat line, or a canvas whose turn has not
        /// ended yet (then `turn` names it) or ended empty.
        var drawing: DrawingID?
        /// The reported chat line's text.
        var chatText: String?
        /// The chat lines around it that the reporter could see, oldest first.
        var chat: [ChatLine]
        /// The canvas when reported: the drawing's stroke log (its final frame is the
        /// snapshot, the whole log the time-lapse).
        var strokes: StrokeLog?
        /// The turn of a canvas reported during a game: once it ends, `drawing` is its
        /// drawing (nil when it ended with an empty canvas) and `turnEnded` is set.
        var turn: TurnKey? = nil
        var turnEnded = false
        /// The store has it (then the store's copy is the one listed).
        var stored = false
    }

    static let idAlphabet: [Character] = Array("abcdefghjkmnpqrstuvwxyz23456789")

    let configuration: Configuration
    /// Oldest first.
    private(set) var open: [Report] = []
    /// Reports closed lately, so a store that lists them a moment longer (another
    /// node's close) is not contradicted by memory; bounded like `open`.
    private(set) var closed: Set<String> = []
    private var budgets: [PlayerID: TokenBucket] = [:]
    private var random: RandomSource

    init(configuration: Configuration = Configuration(), random: RandomSource = .system) {
        self.configuration = configuration
        self.random = random
    }

    /// Files a report unless its reporter has used up its budget (`report_limited`).
    /// The report's `id` is set here.
    mutating func file(_ report: Report, now: Timestamp) -> Result<Report, ProtocolError> {
        var bucket = budgets[report.reporter] ?? TokenBucket(configuration.rate, now: now)
        guard bucket.take(now: now) else {
            return .failure(ProtocolError(.reportLimited, "at most \(configuration.rate.count) reports per \(configuration.rate.periodMs / 60_000) minutes"))
        }
        budgets[report.reporter] = bucket
        // Full buckets hold no information: drop them so the map stays as small as the
        // set of recent reporters.
        if budgets.count > 4 * configuration.maxOpen { budgets = budgets.filter { $0.value.waitMs(for: $0.value.capacity, now: now) > 0 } }
        var filed = report
        filed.id = random.string(count: 12, from: Self.idAlphabet)
        open.append(filed)
        if open.count > configuration.maxOpen { open.removeFirst(open.count - configuration.maxOpen) }
        return .success(filed)
    }

    func report(_ id: String) -> Report? { open.first { $0.id == id } }

    /// Closes one report (dismissed, or acted on); nil when it is not open.
    mutating func close(_ id: String) -> Report? {
        if closed.count >= configuration.maxOpen { closed.removeAll() }
        closed.insert(id)
        guard let index = open.firstIndex(where: { $0.id == id }) else { return nil }
        return open.remove(at: index)
    }

    /// The store took the report.
    mutating func markStored(_ id: String) {
        if let index = open.firstIndex(where: { $0.id == id }) { open[index].stored = true }
    }

    /// The turn ended: reports made while it was drawn now name its drawing (nil: the
    /// canvas ended empty).
    mutating func link(_ turn: TurnKey, to drawing: DrawingID?) {
        for index in open.indices where open[index].turn == turn && !open[index].turnEnded {
            open[index].drawing = drawing
            open[index].turnEnded = true
        }
    }

    /// Closes every report about a drawing that was removed; returns how many.
    @discardableResult
    mutating func closeAll(about drawing: DrawingID) -> Int {
        let before = open.count
        open.removeAll { $0.drawing == drawing }
        return before - open.count
    }
}
