import DrawProtocol
import Rooms

/// This node's view of its ownership of one room: a lease in the shared store with an
/// expiry and a fencing epoch. Pure: `LeaseKeeper` feeds it events and the current time.
///
/// The store stamps a lease's expiry with its own clock (`now() + duration`), which this
/// node cannot read. The node therefore counts a lease valid only until the moment it sent
/// the request that set it, plus the duration, less a safety margin: that moment comes
/// before the store's `now()`, so the node gives a room up before any other node can take it.
struct RoomLease: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// An acquire is in flight, sent at `sentAt`.
        case acquiring(sentAt: Timestamp)
        /// Held with `epoch` until `validUntil`; `renewSentAt` while a renewal is in flight.
        case held(epoch: Int64, validUntil: Timestamp, renewSentAt: Timestamp?)
        /// Lost (refused, fenced or expired): the node must not run the room. `epoch` is the
        /// one it last held, if any.
        case lost(epoch: Int64?)
    }

    let code: RoomCode
    var state: State

    var heldEpoch: Int64? {
        if case .held(let epoch, _, _) = state { epoch } else { nil }
    }

    var isLost: Bool {
        if case .lost = state { true } else { false }
    }
}

/// What `LeaseKeeper` asks its owner to do; the owner reports each outcome back.
enum LeaseAction: Sendable, Equatable {
    /// Take the room's lease: a free or expired one (or one this node already holds) is
    /// taken with a higher epoch.
    case acquire(RoomCode)
    /// Extend a held lease, if the store still has it at this epoch.
    case renew(RoomCode, epoch: Int64)
    /// Give the lease up (expire it now; the epoch stays in the store, so it only grows).
    case release(RoomCode, epoch: Int64)
    /// The room is no longer this node's: stop running it, write nothing more for it.
    case lost(RoomCode, epoch: Int64?)
}
