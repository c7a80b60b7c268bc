import ArgumentParser
import DrawProtocol
import Foundation
import ProcessStats
import Rooms

/// `drawserver bench-messages`: what decoding a client's text frame costs, for the messages
/// players send and for the shapes an abusive client would pick (deep nesting, escapes,
/// the largest frame the server still parses for its `t`), next to Foundation's
/// `JSONDecoder`, which the server used before `JSONParser`.
package struct BenchMessagesCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "bench-messages",
        abstract: "Benchmark decoding client text frames: typical messages and hostile shapes."
    )

    @Option(help: "Seconds to spend on each case and decoder.")
    var seconds = 0.5

    package func run() throws {
        print("Client text frames: CPU per frame (process CPU time / frames)")
        print("  " + "case".padding(toLength: 44, withPad: " ", startingAt: 0) + "  bytes   drawserver (JSONParser)   Foundation JSONDecoder")
        for (name, frame) in Self.cases {
            let ours = measure { _ = ClientMessage.decode(frame) }
            let foundation = measure { _ = try? JSONDecoder().decode(JSONValue.self, from: Data(frame)) }
            let label = name.padding(toLength: 44, withPad: " ", startingAt: 0)
            print("  " + label + String(format: " %6d   %18.2f µs   %19.2f µs", frame.count, ours, foundation))
        }
    }

    /// Microseconds of CPU per call, over about `seconds` (at least one call; batches double
    /// so that reading the clock costs nothing next to fast calls).
    private func measure(_ body: () -> Void) -> Double {
        var calls = 0
        var batch = 1
        let start = ProcessCPU.seconds
        var used = 0.0
        repeat {
            for _ in 0..<batch { body() }
            calls += batch
            batch = min(batch * 2, 8192)
            used = ProcessCPU.seconds - start
        } while used < seconds
        return used / Double(calls) * 1e6
    }

    static let cases: [(String, [UInt8])] = {
        func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
        func chat(filledWith unit: String, upTo size: Int) -> [UInt8] {
            var text = #"{"t":"chat","text":""#
            while text.utf8.count + unit.utf8.count + 2 <= size { text += unit }
            return utf8(text + #""}"#)
        }
        func nested(depth: Int, numbers: Int) -> [UInt8] {
            utf8(#"{"t":"chat","x":"# + String(repeating: "[", count: depth) + String(repeating: "1,", count: numbers) + "1"
                + String(repeating: "]", count: depth) + "}")
        }
        return [
            ("guess", utf8(#"{"t":"guess","text":"house"}"#)),
            ("chat", utf8(#"{"t":"chat","text":"is it a cat? maybe a dog"}"#)),
            ("choose", utf8(#"{"t":"choose","index":0}"#)),
            ("create with settings", utf8(#"{"t":"create","name":"R","public":true,"settings":{"rounds":4,"customWords":["a","b"],"customOnly":false}}"#)),
            ("4 KiB of \\u escapes", chat(filledWith: "\\u00e9", upTo: 4096)),
            ("4 KiB, arrays 60 deep around numbers", nested(depth: 60, numbers: 1900)),
            ("64 KiB, arrays 60 deep (parsed for its t)", nested(depth: 60, numbers: 30_000)),
        ]
    }()
}
