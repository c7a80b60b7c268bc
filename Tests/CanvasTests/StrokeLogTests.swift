import Foundation
import Testing
@testable import Canvas

@Suite("Stroke log")
struct StrokeLogTests {
    let header = #"{"format":"drawserver-strokes/1","w":800,"h":600}"#

    private func line(at: Int, _ bytes: [UInt8]) -> String {
        #"{"at":\#(at),"ops":"\#(Data(bytes).base64EncodedString())"}"#
    }

    private func failure(_ text: String) -> StrokeLogError? {
        do {
            _ = try StrokeLog(ndjson: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func writesTheProtocolFormatAndReadsItBack() throws {
        let log = SampleDrawing.make(seed: 4)
        let text = log.ndjson()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == #"{"format":"drawserver-strokes/1","w":800,"h":600,"word":"house"}"#)
        #expect(lines.count == log.frames.count + 2 && lines.last == "")
        #expect(try StrokeLog(ndjson: text) == log)
        #expect(try StrokeLog(ndjson: Array(text.utf8)) == log)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(first["at"] as? Int == log.frames[0].at)
        #expect(first["ops"] as? String == Data(log.frames[0].bytes).base64EncodedString())
    }

    @Test func wordsAreEscapedAndExtraFieldsIgnored() throws {
        let log = StrokeLog(size: CanvasSize(width: 16, height: 4096), word: "say \"hi\"\\\n\u{01} née")
        #expect(try StrokeLog(ndjson: log.ndjson()) == log)
        let extra = #"{"format":"drawserver-strokes/1","w":800,"h":600,"room":"K7QX2M","v":[1,2]}"#
            + "\n" + #"{"at":0,"ops":"BQ==","by":"ada"}"#
        let parsed = try StrokeLog(ndjson: extra)
        #expect(parsed.word == nil && parsed.frames == [StrokeLog.Frame(at: 0, bytes: [0x05])])
    }

    @Test func toleratesBlankTrailingLinesAndCRLF() throws {
        let text = header + "\r\n" + line(at: 5, [0x06]) + "\r\n\r\n\n  \n"
        let log = try StrokeLog(ndjson: text)
        #expect(log.frames == [StrokeLog.Frame(at: 5, bytes: [0x06])])
        #expect(try StrokeLog(ndjson: header).frames.isEmpty)
    }

    @Test func errorsNameTheLine() {
        let begin = frame([.begin(tool: .pen, color: .black, width: 3, at: Point(x: 10, y: 10))])
        let cases: [(String, Int, String)] = [
            ("", 1, "empty log"),
            ("\n" + header, 1, "header"),
            ("[1,2]", 1, "not a JSON object"),
            ("{\"format\":", 1, "not valid JSON"),
            (#"{"format":"drawserver-strokes/2","w":800,"h":600}"#, 1, "unsupported format"),
            (#"{"w":800,"h":600}"#, 1, "\"format\""),
            (#"{"format":"drawserver-strokes/1","w":800.5,"h":600}"#, 1, "\"w\" must be an integer"),
            (#"{"format":"drawserver-strokes/1","w":true,"h":600}"#, 1, "\"w\" must be an integer"),
            (#"{"format":"drawserver-strokes/1","w":800}"#, 1, "missing \"h\""),
            (#"{"format":"drawserver-strokes/1","w":8000,"h":600}"#, 1, "outside"),
            (#"{"format":"drawserver-strokes/1","w":800,"h":600,"word":3}"#, 1, "\"word\" must be a string"),
            (header + "\n" + line(at: 0, begin) + "\nnot json", 3, "not valid JSON"),
            (header + "\n" + #"{"at":1,"ops":"***"}"#, 2, "not valid base64"),
            (header + "\n" + #"{"at":1}"#, 2, "missing \"ops\""),
            (header + "\n" + #"{"ops":"BQ=="}"#, 2, "missing \"at\""),
            (header + "\n" + line(at: -1, [0x05]), 2, "must not be negative"),
            (header + "\n" + line(at: 10, [0x05]) + "\n" + line(at: 9, [0x05]), 3, "earlier than"),
            (header + "\n" + line(at: 1, []), 2, "frame rejected: empty frame"),
            (header + "\n" + line(at: 1, [0x03]), 2, "frame rejected: operation at byte 0 continues a stroke"),
            (header + "\n" + line(at: 1, [0x09]), 2, "unknown opcode 0x9"),
            (header + "\n" + line(at: 1, begin) + "\n" + line(at: 2, [0x03]) + "\n" + line(at: 3, [0x03]), 4, "continues a stroke"),
        ]
        for (text, number, fragment) in cases {
            let error = failure(text)
            #expect(error?.line == number, "\(text)")
            #expect(error?.message.contains(fragment) == true, "\(String(describing: error)) should mention \(fragment)")
        }
        #expect(StrokeLogError(line: 3, message: "x").description == "line 3: x")
    }

    @Test func cursorCarriesFromLineToLine() throws {
        let begin = frame([.begin(tool: .pen, color: .black, width: 3, at: Point(x: 10, y: 10))])
        let text = [header, line(at: 0, begin), line(at: 16, [0x02, 1, 2, 2]), line(at: 33, [0x03])].joined(separator: "\n")
        let drawing = try StrokeLog(ndjson: text).drawing()
        #expect(drawing.compacted() == [.begin(tool: .pen, color: .black, width: 3, at: Point(x: 10, y: 10)),
                                        .points([Point(x: 11, y: 11)]), .end])
    }

    @Test func drawingReportsTheLineOfAFrameThatNoLongerApplies() {
        let log = StrokeLog(size: .standard, frames: [StrokeLog.Frame(at: 0, bytes: [0x05]), StrokeLog.Frame(at: 1, bytes: [0x03])])
        #expect(throws: StrokeLogError(line: 3, message: "frame rejected: operation at byte 0 continues a stroke but none is open")) {
            try log.drawing()
        }
    }
}
