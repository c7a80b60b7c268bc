import DrawProtocol
import Foundation
import Testing
@testable import Rooms

@Suite("JSON parser for client messages")
struct JSONParserTests {
    func parse(_ text: String) -> JSONValue? { JSONParser.parse(Array(text.utf8)) }

    @Test func values() {
        #expect(parse("null") == .null)
        #expect(parse(" true ") == .bool(true))
        #expect(parse("\t\r\nfalse\n") == .bool(false))
        #expect(parse("0") == .number(0))
        #expect(parse("-12.5e2") == .number(-1250))
        #expect(parse("1E-2") == .number(0.01))
        #expect(parse("[]") == .array([]))
        #expect(parse("{}") == .object([:]))
        #expect(parse(#"{ "t" : "chat", "n" : [1, {"a": null}], "e": "" }"#)
            == .object(["t": .string("chat"), "n": .array([.number(1), .object(["a": .null])]), "e": .string("")]))
        #expect(parse(#"{"a":1,"a":2}"#) == .object(["a": .number(2)]), "the last of duplicate keys wins")
    }

    @Test func strings() {
        #expect(parse(#""plain""#) == .string("plain"))
        #expect(parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(parse(#""caf\u00e9 \u00C9""#) == .string("café É"))
        #expect(parse(#""\ud83d\ude00!""#) == .string("😀!"))
        #expect(parse("\"héllo wörld 你好 😀\"") == .string("héllo wörld 你好 😀"))
        #expect(parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func refusesWhatJSONDoesNotAllow() {
        let invalid = [
            "", " ", "{", "}", "[", "[1,]", "[,1]", #"{"a":1,}"#, #"{"a"}"#, #"{"a" 1}"#, #"{a:1}"#, "{'a':1}",
            "01", "-", "-01", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "Infinity", "-Infinity", "1e400",
            "tru", "nul", "True", "falsey", "1 2", "[1] x", "{} {}", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
            "\"\u{01}\"", "\"tab\there\"", "\"line\nbreak\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
            "\"\\ud800x\"", "/* c */ 1", "[1] // c",
        ]
        for text in invalid { #expect(parse(text) == nil, "\(text.debugDescription) was accepted") }
        #expect(JSONParser.parse([0x22, 0xFF, 0x22]) == nil, "invalid UTF-8")
        #expect(JSONParser.parse([0x22, 0xC3, 0x22]) == nil, "a truncated UTF-8 sequence")
        #expect(JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) == nil, "an encoded surrogate")
    }

    @Test func nestingIsBounded() {
        let depth = JSONParser.maxDepth
        #expect(parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)) != nil)
        #expect(parse(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)) == nil)
        #expect(parse(String(repeating: #"{"a":"#, count: depth + 1) + "1" + String(repeating: "}", count: depth + 1)) == nil)
        // A frame of nothing but brackets is refused without recursing through all of them.
        #expect(parse(String(repeating: "[", count: 100_000)) == nil)
    }

    /// Agrees with Foundation's `JSONDecoder`, which `JSONValue` used before, on client
    /// messages and on thousands of seeded mutations of them (bytes replaced, dropped or
    /// inserted, drawn from JSON's own punctuation and a few others). One known difference:
    /// Foundation accepts a trailing comma (`[1,]`, `{"a":1,}`), which JSON does not allow;
    /// where the input has one, only what this parser accepts is compared.
    @Test func agreesWithFoundationOnMutatedMessages() {
        let messages = [
            #"{"t":"hello","name":"Ada","token":"x-1_2"}"#, #"{"t":"chat","text":"is it a \"cat\"? caf\u00e9"}"#,
            #"{"t":"create","name":"R","public":true,"settings":{"rounds":4,"customWords":["a","b"],"customOnly":false}}"#,
            #"{"t":"choose","index":2}"#, #"{"t":"ready","ready":false}"#, #"{"t":"guess","text":"😀 \ud83d\ude00"}"#,
            #"[1, -2.5e3, 0.25, null, true, {"x": [ ]}]"#,
        ]
        let alphabet = Array(#"{}[]:,"\/ -+.eE0123456789tfnulxa"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var random = SeededRandom(seed: 2026_11_24)
        var disagreements: [String] = []
        var checked = 0
        for message in messages {
            let original = Array(message.utf8)
            for _ in 0..<1500 {
                var bytes = original
                for _ in 0..<random.uniformIndex(below: 3) + 1 {
                    let position = random.uniformIndex(below: bytes.count + 1)
                    let byte = alphabet[random.uniformIndex(below: alphabet.count)]
                    switch random.uniformIndex(below: 3) {
                    case 0 where position < bytes.count: bytes[position] = byte
                    case 1 where position < bytes.count: bytes.remove(at: position)
                    default: bytes.insert(byte, at: position)
                    }
                }
                checked += 1
                let ours = JSONParser.parse(bytes)
                let foundation = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
                let text = String(decoding: bytes, as: UTF8.self)
                let trailingComma = text.range(of: #",[ \t\r\n]*[}\]]"#, options: .regularExpression) != nil
                if trailingComma, ours == nil { continue }
                if ours != foundation, disagreements.count < 10 {
                    disagreements.append("\(String(decoding: bytes, as: UTF8.self).debugDescription): ours \(String(describing: ours)), Foundation \(String(describing: foundation))")
                }
            }
        }
        #expect(checked == messages.count * 1500)
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }
}
