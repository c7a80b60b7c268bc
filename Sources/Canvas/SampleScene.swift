/// Pen paths for `SampleDrawing`: hand-drawn lines, loops and free scribbles.
struct SampleScene {
    let size: CanvasSize

    /// A rounded pixel position, kept within the legal point area.
    func point(_ position: (Double, Double)) -> Point {
        let x = min(max(position.0.rounded(), Double(-size.width)), Double(2 * size.width - 1))
        let y = min(max(position.1.rounded(), Double(-size.height)), Double(2 * size.height - 1))
        return Point(x: Int32(x), y: Int32(y))
    }

    /// A roughly straight line with a slight, smooth hand wobble across it.
    func line(from start: (Double, Double), to end: (Double, Double), step: Double,
              rng: inout SplitMix64) -> [Point] {
        let dx = end.0 - start.0
        let dy = end.1 - start.1
        let length = (dx * dx + dy * dy).squareRoot()
        let count = max(1, Int((length / step).rounded()))
        let normal = (-dy / max(length, 1), dx / max(length, 1))
        var wobble = 0.0
        var drift = 0.0
        return (0...count).map { index in
            let t = Double(index) / Double(count)
            drift = drift * 0.8 + rng.uniform(-0.3...0.3)
            wobble = min(max(wobble + drift, -3), 3)
            return point((start.0 + dx * t + normal.0 * wobble, start.1 + dy * t + normal.1 * wobble))
        }
    }

    /// A closed loop around `center`, overlapping its start a little as people do.
    func loop(center: (Double, Double), radius: Double, step: Double) -> [Point] {
        let angle = step / radius
        let count = Int((2 * 3.141592653589793 / angle).rounded(.up)) + 3
        var heading = Heading(dx: 1, dy: 0)
        return (0...count).map { _ in
            defer { heading.turn(by: angle) }
            return point((center.0 + radius * heading.dx, center.1 + radius * heading.dy))
        }
    }

    /// A free scribble: a smoothly turning heading, steered back when it nears the edges.
    func wander(count: Int, rng: inout SplitMix64) -> [Point] {
        let width = Double(size.width)
        let height = Double(size.height)
        var x = rng.uniform(80...(width - 80))
        var y = rng.uniform(80...(height - 80))
        var heading = Heading(dx: rng.uniform(-1...1), dy: rng.uniform(-1...1))
        var turning = 0.0
        let speed = rng.uniform(300...700)
        let rate = rng.uniform(60...120)
        var step = speed / rate
        var points: [Point] = []
        for _ in 0..<count {
            points.append(point((x, y)))
            turning = turning * 0.9 + rng.uniform(-0.04...0.04)
            heading.turn(by: turning)
            let margin = 60.0
            if x < margin || y < margin || x > width - margin || y > height - margin {
                heading.blend(towards: Heading(dx: width / 2 - x, dy: height / 2 - y), amount: 0.2)
            }
            step = min(max(step + rng.uniform(-0.4...0.4), speed / rate * 0.6), speed / rate * 1.4)
            x += heading.dx * step
            y += heading.dy * step
        }
        return points
    }
}
