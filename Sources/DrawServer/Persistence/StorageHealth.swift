/// Whether storage takes the writer's commits: a pure state machine. The persistence writer
/// tells it what happened (a commit went through or failed, how many bytes it holds), with
/// the time, and does what it answers: hold and retry, give a batch up, log, collapse the
/// held changes, refuse new rooms. Time is passed in, so tests run on virtual time.
struct StorageHealth: Sendable {
    struct Configuration: Sendable, Hashable {
        /// The wait before the first retry of a held batch; it doubles after each failure.
        var firstRetry: Duration = .milliseconds(250)
        /// The longest wait between retries: also the longest a cleared fault goes unnoticed.
        var maxRetry: Duration = .seconds(2)
        /// Bytes of held changes at which they are collapsed and new rooms are refused
        /// (`--storage-queue-bytes`).
        var heldBytesLimit = 64 << 20
    }

    enum Event: Sendable, Equatable {
        case committed(now: Duration)
        case failed(StorageFault, now: Duration)
        /// What the writer holds after taking in a batch.
        case holding(bytes: Int)
        /// What the writer holds after collapsing.
        case collapsed(bytes: Int)
    }

    enum Action: Sendable, Equatable {
        /// One log line: storage started failing.
        case faultStarted(StorageFault)
        /// One log line: storage takes commits again.
        case faultCleared(StorageFault, lasted: Duration, failures: Int)
        /// Keep the batch, and everything after it, and retry at this time.
        case hold(retryAt: Duration)
        /// The fault cannot pass by waiting: give the batch up.
        case drop
        /// The held changes reached the bound: collapse them.
        case collapse(firstTime: Bool)
        /// Refuse (true) or admit again (false) new rooms.
        case refuseNewRooms(Bool)
    }

    let configuration: Configuration
    /// The fault in progress, nil while commits go through.
    private(set) var fault: StorageFault?
    /// When the fault started.
    private(set) var since: Duration?
    /// Failed commits since the fault started.
    private(set) var failures = 0
    /// When the held batch is retried next; nil when nothing is held.
    private(set) var retryAt: Duration?
    private(set) var refusingNewRooms = false
    private var nextDelay: Duration
    /// Held bytes at which the next collapse happens: after a collapse that could not get
    /// below the bound (live state it must keep), not again until the bytes grow a quarter.
    private var collapseAt: Int

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        nextDelay = configuration.firstRetry
        collapseAt = configuration.heldBytesLimit
    }

    var isFailing: Bool { fault != nil }

    /// Whether a held batch may be retried at `now`.
    func mayRetry(at now: Duration) -> Bool { retryAt.map { now >= $0 } ?? true }

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .committed(let now):
            guard let fault else { return [] }
            var actions: [Action] = [.faultCleared(fault, lasted: now - (since ?? now), failures: failures)]
            if refusingNewRooms { actions.append(.refuseNewRooms(false)) }
            self = StorageHealth(configuration: configuration)
            return actions

        case .failed(let fault, let now):
            var actions: [Action] = []
            failures += 1
            if self.fault == nil {
                since = now
                actions.append(.faultStarted(fault))
            }
            // The latest cause is the one reported (a busy database may turn out to be full).
            self.fault = fault
            guard fault.isTransient else {
                retryAt = nil
                return actions + [.drop]
            }
            let retry = now + nextDelay
            retryAt = retry
            nextDelay = min(nextDelay * 2, configuration.maxRetry)
            return actions + [.hold(retryAt: retry)]

        case .holding(let bytes):
            guard bytes >= collapseAt else { return [] }
            var actions: [Action] = [.collapse(firstTime: !refusingNewRooms)]
            if !refusingNewRooms {
                refusingNewRooms = true
                actions.append(.refuseNewRooms(true))
            }
            return actions

        case .collapsed(let bytes):
            collapseAt = max(configuration.heldBytesLimit, bytes + configuration.heldBytesLimit / 4)
            return []
        }
    }
}
