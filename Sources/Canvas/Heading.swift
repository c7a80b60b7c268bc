/// A unit direction turned by small angles with polynomial sin/cos and renormalised with
/// `sqrt`, so generated pen paths need no libm trigonometry (which may differ by an ulp
/// between platforms) and are identical everywhere.
struct Heading: Sendable {
    private(set) var dx: Double
    private(set) var dy: Double

    init(dx: Double, dy: Double) {
        let length = (dx * dx + dy * dy).squareRoot()
        self.dx = length > 0 ? dx / length : 1
        self.dy = length > 0 ? dy / length : 0
    }

    /// Turns by `angle` radians (positive is clockwise on screen); accurate for |angle| <= 0.5.
    mutating func turn(by angle: Double) {
        let a2 = angle * angle
        let sine = angle * (1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42)))
        let cosine = 1 - a2 / 2 * (1 - a2 / 12 * (1 - a2 / 30))
        self = Heading(dx: dx * cosine - dy * sine, dy: dx * sine + dy * cosine)
    }

    /// Moves a fraction of the way towards another direction (steering).
    mutating func blend(towards other: Heading, amount: Double) {
        self = Heading(dx: dx + (other.dx - dx) * amount, dy: dy + (other.dy - dy) * amount)
    }
}
