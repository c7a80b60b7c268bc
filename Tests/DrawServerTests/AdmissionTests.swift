import DrawProtocol
import Foundation
import NIOCore
import NIOPosix
import Rooms
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer

/// Admission control on a deliberately slowed server: while its event loops are held up,
/// new rooms, joins and quick plays get `server_busy` with `retryAfterMs` and `/readyz`
/// answers 503; a room already playing goes on; when the load stops it recovers on its own.
@Suite("Admission control", .serialized, .timeLimit(.minutes(2)))
struct AdmissionTests {
    @Test func aSlowedServerTurnsNewRoomsAwayAndRecovers() async throws {
        // The threshold is well under the slowed loops' lag (about 200 ms) and well over what
        // a loaded full test run causes on its own (at 40 ms, a run once saturated the
        // server before the test slowed it).
        try await withServerRuntime({
            $0.admission.lagThreshold = .milliseconds(100)
            $0.admission.engageAfter = .milliseconds(300)
            $0.admission.releaseAfter = .milliseconds(300)
            // Event loops of its own (the shared group is the one of every other server in
            // this process, and slowing that held up the whole suite for 20 s).
            $0.eventLoopThreads = System.coreCount + 1
        }) { runtime, port in
            #expect(runtime.eventLoopGroup !== MultiThreadedEventLoopGroup.singleton)
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let code = try await seat(ada, [])
            try await waitUntil(seconds: 20) { try await HTTP.get(port: port, path: "/readyz").status == 200 }

            let slowing = LoopSlower(group: runtime.eventLoopGroup)
            slowing.start(blockingMs: 290, everyMs: 300)
            do {
                try await waitUntil(seconds: 20) { try await HTTP.get(port: port, path: "/readyz").text == "saturated" }
            } catch {
                Issue.record("never saturated: \(try await HTTP.get(port: port, path: "/metrics").text.split(separator: "\n").filter { $0.contains("lag_seconds_sum") || $0.contains("lag_seconds_count") })")
                throw error
            }
            #expect(try await HTTP.get(port: port, path: "/readyz").status == 503)
            bob.send(#"{"t":"join","code":"\#(code)"}"#)
            let busy = try await bob.next("error", within: 20)
            #expect(busy["code"]?.stringValue == "server_busy")
            #expect(busy["ref"]?.stringValue == "join")
            #expect(busy["retryAfterMs"]?.intValue == 300)
            bob.send(#"{"t":"create"}"#)
            #expect(try await bob.next("error", within: 20)["code"]?.stringValue == "server_busy")
            // The room already playing still answers.
            ada.send(#"{"t":"chat","text":"still here"}"#)
            try await ada.next("chat", within: 20)
            let metrics = try await HTTP.get(port: port, path: "/metrics").text
            #expect(metrics.contains("drawserver_saturated 1"))
            #expect(metrics.contains(#"drawserver_admission_refusals_total{reason="saturated",message="join"} 1"#) || metrics.contains(#"drawserver_admission_refusals_total{message="join",reason="saturated"} 1"#))

            slowing.stop()
            do {
                try await waitUntil(seconds: 20) { try await HTTP.get(port: port, path: "/readyz").status == 200 }
            } catch {
                Issue.record("never released: \(try await HTTP.get(port: port, path: "/metrics").text.split(separator: "\n").filter { $0.contains("lag_seconds_sum") || $0.contains("lag_seconds_count") })")
                throw error
            }
            // Joined now; as a client does, a refusal (a loaded machine can saturate a server
            // at these scaled-down thresholds again) is retried once the server is ready.
            var room: [String: JSONValue]?
            for _ in 0..<10 where room == nil {
                bob.send(#"{"t":"join","code":"\#(code)"}"#)
                while let event = await bob.nextEvent(within: 10) {
                    guard case .json(.object(let object)) = event else { continue }
                    if object["t"] == .string("room") {
                        room = object
                        break
                    }
                    if object["t"] == .string("error"), object["code"] == .string("server_busy") {
                        try await waitUntil(seconds: 20) { try await HTTP.get(port: port, path: "/readyz").status == 200 }
                        break
                    }
                }
            }
            #expect(room?["code"]?.stringValue == code)
        }
    }
}

/// Holds every event loop of `group` busy for `blockingMs` out of every `everyMs`.
final class LoopSlower: Sendable {
    private let group: any EventLoopGroup
    private let running = Atomic<Bool>(false)

    init(group: any EventLoopGroup) { self.group = group }

    func start(blockingMs: Int, everyMs: Int) {
        running.store(true, ordering: .relaxed)
        for loop in group.makeIterator() { tick(loop, blockingMs: blockingMs, everyMs: everyMs) }
    }

    func stop() { running.store(false, ordering: .relaxed) }

    private func tick(_ loop: any EventLoop, blockingMs: Int, everyMs: Int) {
        loop.scheduleTask(in: .milliseconds(Int64(everyMs - blockingMs))) {
            guard self.running.load(ordering: .relaxed) else { return }
            usleep(UInt32(blockingMs * 1000))
            self.tick(loop, blockingMs: blockingMs, everyMs: everyMs)
        }
    }
}
