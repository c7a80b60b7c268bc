import DrawProtocol
import Rooms

/// Recently ended turns and the turns reported while being drawn, so that a report of a
/// canvas still being drawn can be linked to its drawing (`Moderation`); bounded.
struct TurnLinks: Sendable {
    static let kept = 1_024
    var finished: [TurnKey: DrawingID?] = [:]
    var order: [TurnKey] = []
    var reported: Set<TurnKey> = []

    /// Records how the turn ended; true when it was reported while drawn.
    mutating func end(_ turn: TurnKey, drawing: DrawingID?) -> Bool {
        if finished.updateValue(drawing, forKey: turn) == nil { order.append(turn) }
        if order.count > Self.kept { finished[order.removeFirst()] = nil }
        return reported.remove(turn) != nil
    }
}
