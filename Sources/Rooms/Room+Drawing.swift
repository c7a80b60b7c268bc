import Canvas

/// What the shell does with a drawing frame.
public enum DrawOutcome: Sendable, Equatable {
    /// Valid and applied: relay the same bytes to every other member. `points` counts the
    /// frame's points, for rate limiting.
    case relay(except: PlayerID, points: Int)
    /// Dropped, nothing applied: answer the sender with this error.
    case rejected(ProtocolError)
}

extension Room {
    /// A binary frame from `id`: only the drawer may draw, only in `drawing`; the whole
    /// frame is validated before anything is applied (protocol section 5.2).
    public mutating func draw(frame: UnsafeRawBufferPointer, from id: PlayerID, now: Timestamp) -> DrawOutcome {
        guard case .drawing(let turn) = state, turn.drawer == id else {
            return .rejected(ProtocolError(.notDrawer, "only the drawer can draw, and only while drawing", ref: "binary"))
        }
        // Tiny frames (an UNDO, a CLEAR, an END) still pass the cap, so a drawer who hit it
        // can clean up; the frame rate limit bounds what they add.
        guard strokeBytes + frame.count <= configuration.maxTurnStrokeBytes || frame.count <= 8 else {
            return .rejected(ProtocolError(.tooLarge, "this drawing has reached its size limit; undo or clear", ref: "binary"))
        }
        let summary: FrameSummary
        do {
            var trial = drawing.cursor
            let counted = try FrameCodec.validate(frame, size: drawing.size, cursor: &trial)
            guard fillCount + counted.fills <= configuration.maxTurnFills || counted.fills == 0 else {
                return .rejected(ProtocolError(.tooLarge, "this drawing has reached its limit of \(configuration.maxTurnFills) fills", ref: "binary"))
            }
            summary = try drawing.apply(frame: frame)
        } catch {
            return .rejected(ProtocolError(.badOps, "invalid drawing frame: \(error)", ref: "binary"))
        }
        fillCount += summary.fills
        strokeBytes += frame.count
        strokeLog.frames.append(StrokeLog.Frame(at: max(0, now - turn.startedAt), bytes: Array(frame)))
        return .relay(except: id, points: summary.points)
    }

    public mutating func draw(frame: [UInt8], from id: PlayerID, now: Timestamp) -> DrawOutcome {
        frame.withUnsafeBytes { draw(frame: $0, from: id, now: now) }
    }
}
