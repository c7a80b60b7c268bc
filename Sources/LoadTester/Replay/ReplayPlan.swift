import Canvas
import Foundation
import NIOCore

/// What every room of a run shares (immutable).
struct ReplayPlan: Sendable {
    var url: ReplayURL
    var players: Int
    var logs: [ReplayLog]
    var drawTimeSec: Int
    var rounds: Int
    /// How long after its pass the drawer waits before guessers that have not received
    /// everything guess anyway, so a loss cannot stall a room until the turn times out.
    var guessFallbackNanoseconds: UInt64 = 3_000_000_000
    /// Idle mode: connections only say hello.
    var idle = false
    /// Connections opening at once per event loop.
    var connectConcurrency = 64
    /// Connect first (`--connect-first`): every seat of every room joins and then waits;
    /// nobody says `ready` until the runner releases all rooms together (a barrier).
    var connectFirst = false
    /// `--reconnect`: a connection the server closes, resets or loses is opened again and
    /// resumed with its token, for up to this long.
    var reconnect = false
    var reconnectTimeoutMs = 60_000
    /// `--kernel-receive`: every upgraded connection is read by its loop's `ReplayReceiver`,
    /// and a frame's arrival is the kernel's receive stamp, not the time it was read.
    var kernelReceive = false
    /// `--receive-interval`: how often the receiver polls its sockets.
    var receiveIntervalNanoseconds: Int64 = 200_000
    /// A `server_busy` without `retryAfterMs` is retried after this long.
    var busyRetryDefaultMs = 1000
}
