import Foundation
import Hummingbird

extension DrawServerRuntime {
    /// `GET /api/health` (moderator): readiness and the storage fault state, for the
    /// moderator page's banner and for operators (docs/PROTOCOL.md).
    func addHealthRoute(to router: Router<DrawRequestContext>) {
        let auth = ModeratorAuth(token: configuration.moderatorToken)
        router.get("api/health") { request, _ -> Response in
            try auth.require(request)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return Self.response(Array(try encoder.encode(self.health)), contentType: "application/json")
        }
    }

    var health: HealthReport {
        let report = storageReport
        let answer = readiness.answer(storageFault: report?.fault, saturated: server.admission.isSaturated)
        return HealthReport(
            ready: answer.ready, status: answer.text,
            storage: .init(
                persistent: writer != nil || postgres != nil, ok: report?.fault == nil,
                fault: report?.fault?.kind.rawValue, reason: report?.fault?.kind.reason, detail: report?.fault?.detail,
                failingSince: report?.failingSince, heldChanges: report?.heldChanges ?? 0, heldBytes: report?.heldBytes ?? 0,
                commitFailures: report?.commitFailures ?? 0, droppedChanges: report?.droppedChanges ?? 0,
                refusingNewRooms: report?.refusingNewRooms ?? false
            )
        )
    }
}

/// The body of `GET /api/health`.
struct HealthReport: Codable, Sendable, Equatable {
    struct Storage: Codable, Sendable, Equatable {
        /// False when the server runs without a database.
        var persistent: Bool
        /// False while commits fail.
        var ok: Bool
        /// `disk_full`, `io_error`, `busy`, `read_only`, `unreachable`, `corrupt`, `other`.
        var fault: String?
        var reason: String?
        var detail: String?
        /// Milliseconds since 1970 when the fault started.
        var failingSince: Int64?
        var heldChanges: Int
        var heldBytes: Int
        var commitFailures: Int
        var droppedChanges: Int
        var refusingNewRooms: Bool
    }

    var ready: Bool
    /// The `/readyz` text: `ready`, `starting`, `draining`, `storage failing: <reason>`.
    var status: String
    var storage: Storage
}
