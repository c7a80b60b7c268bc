import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A real `drawserver serve` child process on loopback, for tests that kill, signal or
/// restart the server. Shared by DrawServerTests and DrawClientTests.
package final class ServerProcess {
    package let process = Process()
    package let port: Int
    private let output = TextBuffer()
    private let exited: ProcessExit

    /// The `drawserver` executable built next to the test runner.
    package static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("drawserver")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/drawserver")
    }

    /// Starts `drawserver serve` on `port` (a free one by default) and waits until it
    /// listens and is ready.
    package init(port requested: Int = 0, _ arguments: [String] = [], environment: [String: String] = [:], waitForReady: Bool = true) async throws {
        exited = ProcessExit(process)
        let pipe = Pipe()
        process.executableURL = Self.executable
        // Admission control off: these tests run beside many others and do not test load.
        process.arguments = ["serve", "--port", String(requested), "--log-level", "info", "--saturation-lag-ms", "0"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        Self.collect(pipe.fileHandleForReading, into: output)
        var found: Int?
        let deadline = ContinuousClock.now + .seconds(30)
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
            found = Self.listeningPort(in: output.text)
        }
        guard let found else {
            process.terminate()
            throw ProcessError.didNotStart(output.text)
        }
        port = found
        if waitForReady {
            while ContinuousClock.now < deadline {
                if (try? await HTTP.get(port: port, path: "/readyz").status) == 200 { return }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw ProcessError.didNotStart(log)
        }
    }

    package var log: String { output.text }

    /// The server's WebSocket endpoint.
    package var url: String { "ws://127.0.0.1:\(port)/ws" }

    package static func listeningPort(in text: String) -> Int? {
        guard let range = text.range(of: "listening on 127.0.0.1:") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    package func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// SIGTERM (the server drains: 1012 to every client) and waits for the exit.
    package func terminate(within seconds: Double = 20) async -> Int32? {
        signal(SIGTERM)
        return await waitForExit(seconds: seconds)
    }

    /// Waits for the process to end; its exit status, or nil if it is still running.
    package func waitForExit(seconds: Double) async -> Int32? {
        await exited.wait(timeout: .milliseconds(Int(seconds * 1000)))
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Reads the child's output on a thread of its own, blocking, until its end, then closes
    /// the pipe. Not `readabilityHandler`: its dispatch source is let go asynchronously, so
    /// the pipe's descriptor was often closed first (libdispatch's `EPOLL_CTL_DEL` then failed
    /// with `ENOENT` or `EBADF`, about 50 times a full run), which is what libdispatch calls
    /// closing "random Unix descriptors" under it. With those sources the test runner
    /// sometimes crashed in libdispatch's event loop (`_dispatch_event_loop_drain`).
    private static func collect(_ reading: FileHandle, into output: TextBuffer) {
        let descriptor = reading.fileDescriptor
        let thread = Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.append(String(decoding: chunk[0..<count], as: UTF8.self))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            try? reading.close()
        }
        thread.name = "ServerProcess output"
        thread.start()
    }

    package enum ProcessError: Error {
        case didNotStart(String)
    }

    /// Runs the executable to completion: (status, output).
    package static func run(_ arguments: [String], environment: [String: String] = [:], via launcher: [String] = [], timeout seconds: Double = 30) async throws -> (Int32, String) {
        let process = Process()
        let pipe = Pipe()
        if let first = launcher.first {
            // e.g. `setpriv ...` in front of the server
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = pipe
        process.standardError = pipe
        let exited = ProcessExit(process)
        try process.run()
        await exited.wait(timeout: .milliseconds(Int(seconds * 1000)))
        if process.isRunning { process.terminate() }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// A minimal HTTP/1.1 client over a socket, enough for the server's own routes.
package enum HTTP {
    package struct Reply {
        package var status: Int
        package var body: [UInt8]
        package var response: HTTPURLResponse?
        package init(status: Int, body: [UInt8], response: HTTPURLResponse? = nil) {
            self.status = status
            self.body = body
            self.response = response
        }
        package var text: String { String(decoding: body, as: UTF8.self) }
        package func header(_ name: String) -> String? { response?.value(forHTTPHeaderField: name) }
    }

    package static func get(port: Int, path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        try await request("GET", port: port, path: path, token: token, headers: headers)
    }

    package static func request(
        _ method: String, port: Int, path: String, token: String? = nil, headers: [String: String] = [:], body: String? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let body { request.httpBody = Data(body.utf8) }
        // A bound for a stall, not a measurement: a debug build rendering a time-lapse while
        // the suite's CPU-bound tests hold every worker thread once took over 10 s.
        request.timeoutInterval = 30
        // Every request reaches the server, whatever Cache-Control said before.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return Reply(status: http?.statusCode ?? 0, body: [UInt8](data), response: http)
    }
}

/// A fresh temporary path for a database file, in this test process's scratch folder.
package func temporaryDatabasePath() -> String {
    TestScratch.folder.appendingPathComponent("\(UUID().uuidString).sqlite").path
}

/// One folder per test process for its databases, removed when the process exits, so
/// they do not pile up in the temporary directory run after run.
enum TestScratch {
    static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drawserver-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.folder) }
        return folder
    }()
}

/// Text appended from another thread (a pipe's reader) and read by the test.
package final class TextBuffer: Sendable {
    private let value = Mutex("")
    package init() {}
    package func append(_ text: String) { value.withLock { $0 += text } }
    package var text: String { value.withLock { $0 } }
}

/// The end of a child process, awaited (its termination handler) rather than polled. Made
/// before the process runs.
package final class ProcessExit: Sendable {
    private struct State {
        var ended = false
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    package init(_ process: Process) {
        process.terminationHandler = { [self] _ in
            let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
                s.ended = true
                defer { s.waiters.removeAll() }
                return s.waiters.map(\.continuation)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns when the process has ended, or after `timeout` (an upper bound for a
    /// process that hangs, not a measurement).
    package func wait(timeout: Duration) async {
        await withCheckedContinuation { continuation in
            let id = state.withLock { s -> Int? in
                if s.ended { return nil }
                s.nextID += 1
                s.waiters.append((s.nextID, continuation))
                return s.nextID
            }
            guard let id else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { s -> CheckedContinuation<Void, Never>? in
                    guard let index = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return s.waiters.remove(at: index).continuation
                }
                expired?.resume()
            }
        }
    }
}

/// Thrown by `waitUntil` when its condition never held.
package struct ConditionTimedOut: Error, CustomStringConvertible {
    package var seconds: Double
    package var file: String
    package var line: Int
    package var description: String { "the condition at \(file):\(line) did not hold within \(seconds) s" }
}

/// Checks `condition` every 50 ms until it holds; throws after `seconds` (and a last look).
package func waitUntil(
    seconds: Double = 10, file: String = #fileID, line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if (try? await condition()) == true { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    // Asked once more: a test task not scheduled for a while on a loaded machine wakes
    // past its deadline without having looked.
    if (try? await condition()) == true { return }
    throw ConditionTimedOut(seconds: seconds, file: file, line: line)
}
