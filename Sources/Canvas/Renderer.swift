/// One-shot rendering of operations or a drawing onto a white raster.
public enum Renderer {
    /// Applies `ops` to a fresh drawing (UNDO and CLEAR included) and renders what is left.
    public static func render(_ ops: [DrawOperation], size: CanvasSize) -> Raster {
        var drawing = Drawing(size: size)
        for op in ops {
            drawing.apply(op)
        }
        return render(drawing)
    }

    /// Renders the visible items in order; an open stroke is drawn as far as it goes.
    public static func render(_ drawing: Drawing) -> Raster {
        var raster = Raster(size: drawing.size)
        var painter = Painter(size: drawing.size)
        for item in drawing.items {
            painter.draw(item, on: &raster)
        }
        if let stroke = drawing.openStroke {
            painter.draw(stroke, on: &raster)
        }
        return raster
    }
}
