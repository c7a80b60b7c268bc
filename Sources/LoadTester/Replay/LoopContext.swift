import Canvas
import Foundation
import NIOCore

/// The per-event-loop state of a run: counters and histograms that only this loop
/// touches, and a small limiter for opening connections.
final class LoopContext: @unchecked Sendable {
    let eventLoop: any EventLoop
    var counters = ReplayCounters()
    var latency = LatencyHistogram()
    /// `--kernel-receive`: the latencies of frames whose stamp is their own (they ended
    /// their read), a subset of `latency` with no frame timed by newer bytes.
    var latencyExact = LatencyHistogram()
    var interval = LatencyHistogram()
    var sendLag = LatencyHistogram()
    /// Wakes this loop's drawers when their frames are due.
    let pacer: ReplayPacer
    /// Inside the measured window: rates, latencies and send lag are recorded only then.
    var measuring = false
    /// True once the run is ending: closes are expected.
    var stopping = false
    var openConnections = 0
    /// `--reconnect`: the outages of this loop's clients.
    var outages: [ReplayOutage] = []
    /// `--connect-first`: this loop's rooms whose every seat has joined.
    var roomsSeated = 0
    private var waiting: [ReplayClient] = []
    private var inFlight = 0
    let concurrency: Int
    let url: ReplayURL
    /// `--kernel-receive`: reads this loop's connections (nil: NIO reads them).
    let receiver: ReplayReceiver?

    init(eventLoop: any EventLoop, url: ReplayURL, concurrency: Int, kernelReceive: Bool = false, receiveInterval: TimeAmount = .microseconds(200)) {
        self.eventLoop = eventLoop
        self.url = url
        self.concurrency = concurrency
        pacer = ReplayPacer(eventLoop: eventLoop)
        receiver = kernelReceive ? ReplayReceiver(eventLoop: eventLoop, configuration: .init(interval: receiveInterval)) : nil
    }

    /// The counters with the receiver's count of stamped and unstamped reads.
    var countersWithReads: ReplayCounters {
        var all = counters
        if let receiver {
            all.kernelStampedReads = receiver.stampedReads
            all.unstampedReads = receiver.unstampedReads
        }
        return all
    }

    /// Opens the client's connection when fewer than `concurrency` are being opened.
    func open(_ client: ReplayClient) {
        waiting.append(client)
        pump()
    }

    /// A connection attempt finished (either way).
    func opened() {
        inFlight -= 1
        pump()
    }

    private func pump() {
        while inFlight < concurrency, !waiting.isEmpty, !stopping {
            let client = waiting.removeFirst()
            inFlight += 1
            client.connection.open(client.target ?? url, receiver: receiver)
        }
    }

    /// The counters so far and the latencies since the last call (which are reset).
    func takeInterval() -> (ReplayCounters, LatencyHistogram, Int) {
        let histogram = interval
        interval.reset()
        return (counters, histogram, openConnections)
    }
}
