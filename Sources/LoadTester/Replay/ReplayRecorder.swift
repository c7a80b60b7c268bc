import Canvas
import DrawProtocol
import Foundation
import NIOCore

/// `drawserver replay --record`: joins a room (hello, join, spectate on) and writes every
/// binary frame it receives, with its arrival time, as a stroke log (protocol section 7).
///
/// The log covers one turn: it starts at the next `turn` message (or at once, when the
/// room is already drawing: the canvas replay comes first, at 0 ms) and ends at that
/// turn's `turnEnd` (its word goes in the header) or when the time is up. Frames the
/// server merged stay merged: the log holds the same operations in the same order.
final class ReplayRecorder: ReplayPeer, @unchecked Sendable {
    struct Result: Sendable {
        var log: StrokeLog
        var note: String
    }

    private let code: String
    private let promise: EventLoopPromise<Result>
    private(set) var connection: ReplayConnection!
    private var size: CanvasSize = .standard
    private var frames: [StrokeLog.Frame] = []
    private var turnStart: UInt64?
    private var word: String?
    private var done = false
    private var spectating = false

    init(eventLoop: any EventLoop, code: String) {
        self.code = code
        promise = eventLoop.makePromise()
        connection = ReplayConnection(eventLoop: eventLoop, peer: self)
    }

    var result: EventLoopFuture<Result> { promise.futureResult }

    func start(_ url: ReplayURL) { connection.open(url) }

    /// Time is up: write what was recorded.
    func finish(_ note: String) {
        guard !done else { return }
        done = true
        connection.close()
        promise.succeed(Result(log: StrokeLog(size: size, word: word, frames: frames), note: note))
    }

    func connected(_ connection: ReplayConnection) {
        connection.sendText(ClientMessage.hello(name: "recorder").jsonString)
    }

    func closed(_ connection: ReplayConnection, code: Int?, error: (any Error)?) {
        guard !done else { return }
        done = true
        if frames.isEmpty {
            promise.fail(RecordError.closed(code: code, error: error.map { "\($0)" }))
        } else {
            promise.succeed(Result(log: StrokeLog(size: size, word: word, frames: frames), note: "the connection closed"))
        }
    }

    func received(text: ByteBuffer, on connection: ReplayConnection) {
        guard let message = ServerMessage(text: text.readableBytesView) else { return }
        switch message {
        case .welcome:
            connection.sendText(ClientMessage.join(code: code).jsonString)
        case .room(let view):
            size = CanvasSize(width: view.canvasWidth, height: view.canvasHeight)
            if turnStart == nil, view.phase == .drawing {
                turnStart = NIODeadline.now().uptimeNanoseconds
            }
            if !spectating {
                spectating = true
                connection.sendText(ClientMessage.spectate(true).jsonString)
            }
        case .canvas(let width, let height):
            size = CanvasSize(width: width, height: height)
            if turnStart == nil { turnStart = NIODeadline.now().uptimeNanoseconds }
        case .turn:
            if frames.isEmpty { turnStart = NIODeadline.now().uptimeNanoseconds }
        case .turnEnd(let word, _, _, _, _):
            self.word = word
            if !frames.isEmpty { finish("the turn ended") } else { turnStart = nil }
        case .error(let error):
            // Only a failed join ends the recording (spectate may legitimately be refused).
            if [.roomNotFound, .roomFull, .banned].contains(error.code) {
                done = true
                connection.close()
                promise.fail(RecordError.server(error.code.rawValue, error.message))
            }
        default:
            break
        }
    }

    func received(binary: ByteBuffer, at nanoseconds: UInt64, exact: Bool, on connection: ReplayConnection) {
        guard !done else { return }
        let start = turnStart ?? nanoseconds
        if turnStart == nil { turnStart = nanoseconds }
        let at = Int((nanoseconds - min(start, nanoseconds)) / 1_000_000)
        frames.append(StrokeLog.Frame(at: max(at, frames.last?.at ?? 0), bytes: Array(binary.readableBytesView)))
    }

    enum RecordError: Error, CustomStringConvertible {
        case closed(code: Int?, error: String?)
        case server(String, String)

        var description: String {
            switch self {
            case .closed(let code, let error):
                "the connection closed before any drawing arrived" + (code.map { " (code \($0))" } ?? "") + (error.map { ": \($0)" } ?? "")
            case .server(let code, let message): "the server refused: \(code) \(message)"
            }
        }
    }
}
