#if canImport(Glibc)
import Glibc
#endif

/// CPU time this process has used (user + system), for "CPU per operation" figures.
package enum ProcessCPU {
    package static var seconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
