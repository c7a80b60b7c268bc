/// An inclusive rectangle of pixels, the unit of "dirty" tracking.
struct PixelRect: Hashable, Sendable {
    var minX: Int
    var minY: Int
    var maxX: Int
    var maxY: Int

    func union(_ other: PixelRect) -> PixelRect {
        PixelRect(
            minX: min(minX, other.minX), minY: min(minY, other.minY),
            maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY)
        )
    }
}

extension PixelRect? {
    /// Grows an optional rect, `nil` meaning nothing touched yet.
    mutating func formUnion(_ other: PixelRect?) {
        guard let other else { return }
        self = self.map { $0.union(other) } ?? other
    }
}
