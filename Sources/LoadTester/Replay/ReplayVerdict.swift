import ArgumentParser
import Foundation

/// Whether a replay run worked: a load test that lost its connections or delivered nothing
/// must not end like one that passed. Pure, from the summary alone.
struct ReplayVerdict: Equatable {
    /// The process's exit status for each way a run can fail, distinct so scripts can tell.
    enum Failure: Int32, Equatable, CaseIterable {
        /// A connection could not be opened, was closed by the server before the end, or (in
        /// idle mode) was never welcomed.
        case connectionsFailed = 3
        /// Nothing was expected or nothing was delivered: no room drew.
        case nothingDelivered = 4
        /// Fewer operations arrived than `--min-ratio` of those sent.
        case ratioBelowMinimum = 5
    }

    static let defaultMinimumRatio = 0.999

    /// Every failure found, most fundamental first; empty when the run passed.
    var failures: [(Failure, String)]

    init(summary: ReplaySummary, minimumRatio: Double = Self.defaultMinimumRatio, idleExpected: Int? = nil) {
        var failures: [(Failure, String)] = []
        let broken = summary.connectErrors + summary.unexpectedCloses
        if broken > 0 {
            failures.append((.connectionsFailed, "\(summary.connectErrors) connection(s) could not be opened and \(summary.unexpectedCloses) closed early"))
        }
        for outage in summary.outages ?? [] where outage.recovered < outage.clients {
            failures.append((.connectionsFailed, String(format: "%d of %d clients did not come back after the outage at %.1f s (%d refused)", outage.clients - outage.recovered, outage.clients, outage.atSeconds, outage.refused)))
        }
        if let phase = summary.connectPhase, phase.roomsComplete < phase.roomsPlanned {
            failures.append((.connectionsFailed, "the connect phase ended with \(phase.roomsComplete) of \(phase.roomsPlanned) rooms complete (\(phase.connectionsEstablished) of \(phase.connectionsPlanned) connections)"))
        }
        if let idleExpected {
            let welcomed = summary.idleConnections ?? 0
            if welcomed < idleExpected {
                failures.append((.connectionsFailed, "only \(welcomed) of \(idleExpected) idle connections were welcomed"))
            }
        } else {
            let delivery = summary.delivery
            if delivery.expected == 0 || delivery.delivered == 0 {
                failures.append((.nothingDelivered, "\(delivery.delivered) of \(delivery.expected) operations delivered"))
            } else if delivery.ratio < minimumRatio {
                failures.append((.ratioBelowMinimum, String(format: "delivery ratio %.6f is below --min-ratio %g", delivery.ratio, minimumRatio)))
            }
        }
        self.failures = failures
    }

    var passed: Bool { failures.isEmpty }

    /// The exit status: the first failure's, 0 when the run passed.
    var exitCode: ExitCode { ExitCode(failures.first?.0.rawValue ?? 0) }

    static func == (lhs: ReplayVerdict, rhs: ReplayVerdict) -> Bool {
        lhs.failures.map(\.0) == rhs.failures.map(\.0) && lhs.failures.map(\.1) == rhs.failures.map(\.1)
    }
}
