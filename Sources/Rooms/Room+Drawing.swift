import Canvas
import DrawProtocol

/// What the shell does with a drawing frame.
public enum DrawOutcome: Sendable, Equatable {
    /// Valid and applied: relay the same bytes to every other member. `points` counts the
    /// frame's points, for rate limiting.
    case relay(except: PlayerID, points: Int)
    /// Valid and applied to the sender's own drawing (a telephone game's draw step):
    /// relayed to nobody, kept with the room.
    case kept(points: Int)
    /// Dropped, nothing applied: answer the sender with this error.
    case rejected(ProtocolError)
}

extension Room {
    /// A binary frame from `id`: only the drawer may draw, only in `drawing`; the whole
    /// frame is validated before anything is applied (protocol section 5.2).
    ///
    /// A valid frame that would leave more on the canvas than the drawing caps allow
    /// (`maxDrawingPoints`, `maxDrawingItems`, `maxDrawingInkAreas`) is refused whole with
    /// `too_large`; UNDO and CLEAR free room, so a drawer who hit a cap can carry on.
    public mutating func draw(frame: UnsafeRawBufferPointer, from id: PlayerID, now: Timestamp) -> DrawOutcome {
        if case .telephone = state { return sketch(frame: frame, from: id, now: now) }
        guard case .drawing(let turn) = state, turn.drawer == id else {
            return .rejected(ProtocolError(.notDrawer, "only the drawer can draw, and only while drawing", ref: "binary"))
        }
        let summary: FrameSummary
        do {
            var trial = drawing.cursor
            let counted = try FrameCodec.validate(frame, size: drawing.size, cursor: &trial)
            if counted.removals == 0 {
                // Only adds: the caps can be checked before anything is applied.
                if let refusal = capRefusal(points: drawing.pointCount + counted.points,
                                            items: drawing.visibleItemCount + counted.strokes + counted.fills,
                                            ink: drawing.ink.addingReportingOverflow(drawing.inkCost(of: frame)).partialValue) {
                    return .rejected(refusal)
                }
                summary = try drawing.apply(frame: frame)
            } else {
                // An UNDO or CLEAR may make room first: try the frame on a copy.
                var next = drawing
                summary = try next.apply(frame: frame)
                if let refusal = capRefusal(points: next.pointCount, items: next.visibleItemCount, ink: next.ink) {
                    return .rejected(refusal)
                }
                drawing = next
            }
        } catch {
            return .rejected(ProtocolError(.badOps, "invalid drawing frame: \(error)", ref: "binary"))
        }
        let at = max(0, now - turn.startedAt)
        strokeLog.frames.append(StrokeLog.Frame(at: at, bytes: Array(frame)))
        strokeLogBytes += frame.count
        if strokeLogBytes > configuration.maxTurnLogBytes { compactStrokeLog(at: at) }
        return .relay(except: id, points: summary.points)
    }

    public mutating func draw(frame: [UInt8], from id: PlayerID, now: Timestamp) -> DrawOutcome {
        frame.withUnsafeBytes { draw(frame: $0, from: id, now: now) }
    }

    /// After the drawer's frame was refused: what brings the drawer's canvas, which already
    /// shows the refused strokes, back to what everyone else sees (`canvas`, then the
    /// drawing). Nothing for anyone but the current drawer.
    public func resync(drawer id: PlayerID) -> [RoomEffect] {
        guard case .drawing(let turn) = state, turn.drawer == id else { return [] }
        return canvasReplay(for: id)
    }

    func capRefusal(points: Int, items: Int, ink: Int) -> ProtocolError? {
        if points > configuration.maxDrawingPoints {
            return ProtocolError(.tooLarge, "the canvas holds at most \(configuration.maxDrawingPoints) points; undo or clear to draw more", ref: "binary")
        }
        if items > configuration.maxDrawingItems {
            return ProtocolError(.tooLarge, "the canvas holds at most \(configuration.maxDrawingItems) strokes and fills; undo or clear to draw more", ref: "binary")
        }
        // A sum that overflowed shows as negative; a budget that overflows is no limit.
        let (budget, unlimited) = configuration.maxDrawingInkAreas.multipliedReportingOverflow(by: configuration.canvas.width * configuration.canvas.height)
        if ink < 0 || (!unlimited && ink > budget) {
            return ProtocolError(.tooLarge, "the canvas holds at most \(configuration.maxDrawingInkAreas) canvases' worth of ink (fills count as a whole canvas); undo or clear to draw more", ref: "binary")
        }
        return nil
    }

    /// Replaces the turn's record with the compacted drawing (same canvas, same open
    /// stroke), under a new canvas generation so storage replaces the stored frames too.
    private mutating func compactStrokeLog(at: Int) {
        let frames = drawing.compactedFrames()
        strokeLog.frames = frames.map { StrokeLog.Frame(at: at, bytes: $0) }
        strokeLogBytes = frames.reduce(0) { $0 + $1.count }
        canvasGeneration += 1
    }
}
