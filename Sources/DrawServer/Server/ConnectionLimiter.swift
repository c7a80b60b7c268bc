import Rooms

/// The rate limits of one connection (protocol section 2.3 `rate_limited`, 1008 on
/// sustained abuse). Owned by its session, which handles messages one at a time.
struct ConnectionLimiter: Sendable {
    private var messages: TokenBucket
    private var chat: TokenBucket
    private var frames: TokenBucket
    private var points: TokenBucket
    private var joins: TokenBucket
    private var invites: TokenBucket
    private var strikes: [Timestamp] = []
    private var lastNotice: Timestamp?
    /// Refusals within `abuseWindowMs` that add up to sustained abuse (only these two
    /// numbers are kept: the limiter lives in every connection's task frames).
    private let abuseStrikes: Int
    private let abuseWindowMs: Int

    init(limits: ServerConfiguration.Limits, now: Timestamp) {
        abuseStrikes = limits.abuseStrikes
        abuseWindowMs = limits.abuseWindowMs
        messages = TokenBucket(limits.messageRate, now: now)
        chat = TokenBucket(limits.chatRate, now: now)
        invites = TokenBucket(limits.inviteRate, now: now)
        frames = TokenBucket(limits.frameRate, now: now)
        points = TokenBucket(limits.pointRate, now: now)
        joins = TokenBucket(limits.joinRate, now: now)
    }

    enum Kind {
        /// Any text frame, valid or not.
        case message
        case chat
        case join
        case invite
    }

    mutating func allow(_ kind: Kind, now: Timestamp) -> Bool {
        switch kind {
        case .message: messages.take(now: now)
        case .chat: chat.take(now: now)
        case .join: joins.take(now: now)
        case .invite: invites.take(now: now)
        }
    }

    /// A drawing frame may go to the room if the frame budget has a token and the point
    /// budget is not in debt.
    mutating func allowFrame(now: Timestamp) -> Bool {
        points.hasTokens(now: now) && frames.take(now: now)
    }

    /// Points are known once the room accepted the frame.
    mutating func charge(points count: Int, now: Timestamp) {
        points.charge(Double(count), now: now)
    }

    /// Records a refusal; true when they add up to sustained abuse.
    mutating func strike(now: Timestamp) -> Bool {
        strikes.append(now)
        strikes.removeAll { now - $0 > abuseWindowMs }
        return strikes.count >= abuseStrikes
    }

    /// Whether to tell the client about a refused drawing frame now: at most twice a second,
    /// so the notices cannot become a flood of their own.
    mutating func shouldNotify(now: Timestamp) -> Bool {
        if let last = lastNotice, now - last < 500 { return false }
        lastNotice = now
        return true
    }
}
