import Canvas
import DrawProtocol
import Rooms

/// Drawing: choosing a word it has a drawing for, and the replay plan fitted to the draw time.
extension BotBrain {
    mutating func chooseWord(_ words: [String], remainingMs: Int, now: Timestamp) -> [BotAction] {
        guard !words.isEmpty else { return [] }
        let drawable = words.indices.filter { !library.drawings(of: words[$0], language: language).isEmpty }
        let index = drawable.isEmpty ? 0 : drawable[rng.uniformIndex(below: drawable.count)]
        var delay = Int.random(in: style.chooseDelay, using: &rng)
        delay = min(delay, max(0, remainingMs / 2))
        turn = .choosing(index: index, at: now + delay, drawable: !drawable.isEmpty)
        return []
    }

    mutating func drawPlan(word: String?, remaining: Int, now: Timestamp) -> DrawPlan {
        let options = word.map { library.drawings(of: $0, language: language).filter { $0.size == canvas } } ?? []
        guard !options.isEmpty else { return DrawPlan(frames: [], skipAt: now + 1_500) }
        // The best drawing most of the time; now and then one of the next best.
        let pick = options.count > 1 && Double.random(in: 0..<1, using: &rng) < 0.3 ? rng.uniformIndex(below: min(3, options.count)) : 0
        let log = options[pick]
        let start = 600
        let span = max(1, (log.frames.last?.at ?? 0) - (log.frames.first?.at ?? 0))
        let target = Double(remaining) * Double.random(in: style.drawShare, using: &rng) - Double(start)
        // Fitted to the draw time, but never faster than a third or slower than triple the original.
        let scale = max(1.0 / 3.0, min(3.0, target / Double(span)))
        let origin = log.frames.first?.at ?? 0
        let frames = log.frames.map { (at: now + start + Int(Double($0.at - origin) * scale), bytes: $0.bytes) }
        return DrawPlan(frames: frames)
    }
}
