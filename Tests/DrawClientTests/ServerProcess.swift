import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A real `drawserver serve` child process on loopback.
final class ServerProcess {
    let process = Process()
    let port: Int
    private let output = Output()

    /// The `drawserver` executable built next to the test runner.
    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("drawserver")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/drawserver")
    }

    /// Starts `drawserver serve` (on `port`, or a free one) and waits until it is ready.
    init(port requested: Int = 0, _ arguments: [String] = []) async throws {
        let pipe = Pipe()
        process.executableURL = Self.executable
        // Loopback tests open many connections from one address; admission control judges
        // machine load, which these tests do not test.
        process.arguments = [
            "serve", "--port", String(requested), "--log-level", "info", "--saturation-lag-ms", "0",
            "--max-connections-per-ip", "0",
        ] + arguments
        process.standardOutput = pipe
        process.standardError = pipe
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            output.append(String(decoding: data, as: UTF8.self))
        }
        try process.run()
        var found: Int?
        let deadline = ContinuousClock.now + .seconds(30)
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
            found = Self.listeningPort(in: output.text)
        }
        guard let found else {
            process.terminate()
            throw StartFailure(log: output.text)
        }
        port = found
        // Listening comes before ready (the database loads in between).
        while ContinuousClock.now < deadline {
            if await Self.isReady(port: found) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw StartFailure(log: output.text)
    }

    var url: String { "ws://127.0.0.1:\(port)/ws" }
    var log: String { output.text }

    static func listeningPort(in text: String) -> Int? {
        guard let range = text.range(of: "listening on 127.0.0.1:") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    static func isReady(port: Int) async -> Bool {
        guard let url = URL(string: "http://127.0.0.1:\(port)/readyz") else { return false }
        var request = URLRequest(url: url)
        request.timeoutInterval = 2
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return false }
        return (response as? HTTPURLResponse)?.statusCode == 200
    }

    /// SIGTERM (the server drains: 1012 to every client) and waits for the exit.
    func terminate(within seconds: Double = 20) async -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    struct StartFailure: Error, CustomStringConvertible {
        var log: String
        var description: String { "drawserver did not start:\n\(log)" }
    }

    private final class Output: Sendable {
        private let value = Mutex("")
        func append(_ text: String) { value.withLock { $0 += text } }
        var text: String { value.withLock { $0 } }
    }
}

func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("drawclient-test-\(UUID().uuidString).sqlite").path
}
