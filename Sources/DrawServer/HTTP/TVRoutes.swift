import Foundation
import Hummingbird

extension DrawServerRuntime {
    /// The big-screen view (issue 36, docs/PROTOCOL.md section 12.3): `/tv` asks for a
    /// room's code, `/tv/CODE` shows that room. One page for both; it reads the code from
    /// its own path and joins as a screen that watches (`join` with `watch`).
    func addTVRoutes(to router: Router<DrawRequestContext>) {
        guard let webRoot = configuration.webRoot else { return }
        let page = URL(fileURLWithPath: webRoot).appendingPathComponent("tv.html").path
        let serve: @Sendable (Request, DrawRequestContext) async throws -> Response = { _, _ in
            guard let bytes = FileManager.default.contents(atPath: page) else { throw HTTPError(.notFound) }
            return Self.response(Array(bytes), contentType: "text/html; charset=utf-8")
        }
        router.get("tv", use: serve)
        router.get("tv/{code}", use: serve)
    }
}
