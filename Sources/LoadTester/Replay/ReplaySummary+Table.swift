import Foundation

extension ReplaySummary {
    /// The human-readable table printed at the end.
    func table() -> String {
        var lines: [String] = []
        func row(_ name: String, _ value: String) {
            lines.append(name.padding(toLength: 30, withPad: " ", startingAt: 0) + value)
        }
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        lines.append("drawserver replay: \(url)")
        if mode == "idle" {
            row("idle connections", "\(idleConnections ?? 0) welcomed of \(connectionsOpened) opened")
        } else {
            row("rooms x players", "\(rooms) x \(players), speed \(Self.number(speed)), logs \(logs.joined(separator: ", "))")
            row("window", String(format: "%.1f s of %.1f s", windowSeconds, durationSeconds))
            row("operations sent / s", Self.grouped(opsSentPerSecond))
            row("operations delivered / s", Self.grouped(opsDeliveredPerSecond))
            row("frames received / s", Self.grouped(framesReceivedPerSecond))
            row("latency p50 / p90", "\(ms(latencyMs.p50)) / \(ms(latencyMs.p90))")
            row("latency p99 / p99.9 / max", "\(ms(latencyMs.p99)) / \(ms(latencyMs.p999)) / \(ms(latencyMs.max))")
            row("latency samples", Self.grouped(Double(latencyMs.samples)))
            if let exact = latencyExactMs {
                row("own-stamp p50 / p99 / p99.9", "\(ms(exact.p50)) / \(ms(exact.p99)) / \(ms(exact.p999)) (\(Self.grouped(Double(exact.samples))) frames that ended their read)")
            }
            row("delivery ratio", String(format: "%.6f (%d of %d operations)", delivery.ratio, delivery.delivered, delivery.expected))
            row("lost / out of order", "\(delivery.lost) / \(delivery.outOfOrder)")
            row("duplicated / unexpected", "\(delivery.duplicated) / \(delivery.unexpected) (invalid frames \(delivery.invalidFrames))")
            if delivery.resyncedAfterOutage > 0 { row("canvas replayed on resume", "\(delivery.resyncedAfterOutage) operations (not matched)") }
            row("turns ended", Self.counts(turnsEnded) + ", games ended \(gamesEnded), guess fallbacks \(guessFallbacks)")
        }
        if let phase = connectPhase {
            row("connect phase", String(
                format: "%d of %d connections, %d of %d rooms complete in %.1f s%@, %d server_busy retried, %d failed",
                phase.connectionsEstablished, phase.connectionsPlanned, phase.roomsComplete, phase.roomsPlanned,
                phase.seconds, phase.timedOut ? " (timed out)" : "", phase.busyRetries, phase.connectErrors))
        }
        for (index, outage) in (outages ?? []).enumerated() {
            row(index == 0 ? "outages" : "", String(
                format: "at %.1f s: %d of %d clients back (%d refused), reconnect p50 %.0f ms, p99 %.0f ms, max %.0f ms, %d ops lost, %d attempts, closes %@",
                outage.atSeconds, outage.recovered, outage.clients, outage.refused, outage.reconnectMsP50, outage.reconnectMsP99, outage.reconnectMsMax,
                outage.opsLost, outage.attempts, Self.counts(outage.closeCodes)))
            if let back = outage.backInRoom, let p50 = outage.roomMsP50, let p99 = outage.roomMsP99, let max = outage.roomMsMax {
                row("", String(format: "  %d of %d back in their room, p50 %.0f ms, p99 %.0f ms, max %.0f ms after the first close",
                               back, outage.clients, p50, p99, max))
            }
        }
        if outages?.isEmpty == true { row("outages", "none") }
        row("connections", "\(connectionsOpened) opened, \(connectErrors) failed, \(unexpectedCloses) closed early" + (closeCodes.isEmpty ? "" : " (\(Self.counts(closeCodes)))"))
        if redirects > 0 { row("redirects followed", "\(redirects)") }
        row("server errors", serverErrors.isEmpty ? "none" : Self.counts(serverErrors))
        row("client CPU", String(format: "%.1f%% of one core (%d core(s) usable, %d thread(s)), send lag p99 %.2f ms",
                                 client.cpuPercentOfOneCore, client.cores, client.threads, client.sendLagMs.p99))
        if let stamped = client.kernelStampedReads {
            row("receive", "kernel stamps (--kernel-receive): \(stamped) reads stamped, \(client.unstampedReads ?? 0) timed when read")
        }
        if let server {
            row("server CPU", String(format: "%.1f%% of one core, %.2f s per million deliveries", server.cpuPercentOfOneCore, server.cpuSecondsPerMillionDeliveries))
            row("server memory (VmRSS)", "\(server.rssKBStart) KB -> \(server.rssKBEnd) KB")
        }
        for warning in warnings { lines.append("WARNING: " + warning) }
        return lines.joined(separator: "\n")
    }

    static func counts(_ values: [String: Int]) -> String {
        values.isEmpty ? "none" : values.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { out.append(",") }
            out.append(character)
        }
        return String(out.reversed())
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
