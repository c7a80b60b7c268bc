/// The output geometry of a time-lapse: the canvas scaled up, then fitted to a longest side,
/// as the PNG routes do (`scaled(by:)` then `fitted(maxSide:)`).
struct TimelapseShape: Sendable {
    let size: CanvasSize
    let scale: Int
    let maxSide: Int?

    /// Whether frames must be downscaled as whole rasters (area averaging mixes neighbours,
    /// so a changed rectangle cannot be mapped to the output without rendering it).
    var isFitted: Bool {
        guard let maxSide else { return false }
        return max(size.width, size.height) * scale > maxSide
    }

    /// The longer side of the output.
    var longerSide: Int {
        max(output.width, output.height)
    }

    /// The output's pixel size.
    var output: CanvasSize {
        if isFitted { return transform(Raster(size: size)).size }
        return CanvasSize(width: size.width * scale, height: size.height * scale)
    }

    /// The raster the changed rectangles are found in: the canvas itself, or the fitted
    /// output when fitting.
    func diffSpace(_ canvas: Raster) -> Raster {
        isFitted ? transform(canvas) : canvas
    }

    /// What a rectangle of the diff space becomes in the output: scaled unless fitted.
    var postScale: Int { isFitted ? 1 : scale }

    private func transform(_ raster: Raster) -> Raster {
        var image = raster.scaled(by: scale)
        if let maxSide { image = image.fitted(maxSide: maxSide) }
        return image
    }
}
