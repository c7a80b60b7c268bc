extension PixelRect? {
    /// Grows an optional rect, `nil` meaning nothing touched yet.
    mutating func formUnion(_ other: PixelRect?) {
        guard let other else { return }
        self = self.map { $0.union(other) } ?? other
    }
}
