import Foundation

/// CPU and memory of a process, read from /proc (Linux).
package enum ProcStat {
    /// utime + stime of `pid` in seconds, from /proc/PID/stat.
    package static func cpuSeconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after "comm)": state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / ticks
    }

    /// VmRSS of `pid` in KB, from /proc/PID/status.
    package static func residentKB(pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// The number of CPUs this process may run on (Cpus_allowed_list), e.g. 1 under `taskset -c 1`.
    package static func allowedCores() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 1 }
        for line in text.split(separator: "\n") where line.hasPrefix("Cpus_allowed_list:") {
            return parseCPUList(String(line.dropFirst("Cpus_allowed_list:".count)))
        }
        return ProcessInfo.processInfo.activeProcessorCount
    }

    /// Counts a Linux CPU list such as "0-3,6".
    static func parseCPUList(_ text: String) -> Int {
        var total = 0
        for part in text.trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let bounds = part.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if bounds.count == 2 { total += max(0, bounds[1] - bounds[0] + 1) } else if bounds.count == 1 { total += 1 }
        }
        return max(1, total)
    }
}
