import DrawProtocol
import Rooms

/// The rate limits of one connection. Drawing frames, text messages and chat are shaped:
/// a message over its budget waits (the connection stops being read) until the budget
/// refills, so a burst after a network stall is handled late but whole. Joins and
/// invitations are refused (`rate_limited`), and refusals add up to the 1008 close for
/// sustained abuse. Owned by its session, which handles messages one at a time.
struct ConnectionLimiter: Sendable {
    private var messages: TokenBucket
    private var chat: TokenBucket
    private var frames: TokenBucket
    private var points: TokenBucket
    private var joins: TokenBucket
    private var invites: TokenBucket
    private var strikes: [Timestamp] = []
    /// Refusals within `abuseWindow` that add up to sustained abuse (only these two
    /// numbers are kept: the limiter lives in every connection's task frames).
    private let abuseStrikes: Int
    private let abuseWindowMs: Int

    init(limits: ServerConfiguration.Limits, now: Timestamp) {
        abuseStrikes = limits.abuseStrikes
        abuseWindowMs = DurationText.milliseconds(limits.abuseWindow)
        messages = TokenBucket(limits.messageRate, now: now)
        chat = TokenBucket(limits.chatRate, now: now)
        invites = TokenBucket(limits.inviteRate, now: now)
        frames = TokenBucket(limits.frameRate, now: now)
        points = TokenBucket(limits.pointRate, now: now)
        joins = TokenBucket(limits.joinRate, now: now)
    }

    /// The budgets that refuse rather than wait: a join or an invitation is not a
    /// catch-up after a stall.
    enum Kind {
        case join
        case invite
    }

    mutating func allow(_ kind: Kind, now: Timestamp) -> Bool {
        switch kind {
        case .join: joins.take(now: now)
        case .invite: invites.take(now: now)
        }
    }

    /// Milliseconds a drawing frame must wait for the frame budget's token and for the
    /// point budget's debt to be paid back; at 0 the frame may go, and its token is taken.
    mutating func frameWaitMs(now: Timestamp) -> Int {
        let wait = max(frames.waitMs(now: now), points.waitMs(now: now))
        if wait == 0 { _ = frames.take(now: now) }
        return wait
    }

    /// Milliseconds a text message must wait for its budgets: every text message spends
    /// from the message budget, chat and guesses also from the chat budget. At 0 the
    /// message may be handled, and its tokens are taken.
    mutating func textWaitMs(isChat: Bool, now: Timestamp) -> Int {
        let wait = max(messages.waitMs(now: now), isChat ? chat.waitMs(now: now) : 0)
        guard wait == 0 else { return wait }
        _ = messages.take(now: now)
        if isChat { _ = chat.take(now: now) }
        return 0
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

}
