import Testing
import Canvas

@Suite("Canvas size")
struct CanvasSizeTests {
    @Test func parsesWidthByHeight() {
        #expect(CanvasSize(parsing: "800x600") == .standard)
        #expect(CanvasSize(parsing: "16X4096") == CanvasSize(width: 16, height: 4096))
        #expect(CanvasSize.standard.description == "800x600")
        #expect(CanvasSize(parsing: CanvasSize(width: 1024, height: 768).description) == CanvasSize(width: 1024, height: 768))
    }

    @Test(arguments: ["", "800", "800x", "x600", "15x600", "800x4097", "+800x600", "800x600x1", "800 x 600",
                      "abcxdef", "-16x16", "0800x0600x", "99999999999999999999x600"])
    func rejectsMalformedOrOutOfRange(text: String) {
        #expect(CanvasSize(parsing: text) == nil)
    }
}
