import ArgumentParser

extension ServeCommand {
    /// Admission control's thresholds (docs/RELIABILITY.md, "Overload").
    func applyAdmission(to admission: inout SaturationDetector.Configuration, env: Environment) throws {
        if let lag = try saturationLagMs ?? env.int("DRAWSERVER_SATURATION_LAG_MS") {
            guard (0...10_000).contains(lag) else { throw ValidationError("--saturation-lag-ms must be 0...10000") }
            admission.lagThresholdMs = lag
        }
        if let seconds = try saturationSeconds ?? env.int("DRAWSERVER_SATURATION_SECONDS") {
            guard (1...600).contains(seconds) else { throw ValidationError("--saturation-seconds must be 1...600") }
            admission.engageAfterMs = seconds * 1_000
        }
        if let seconds = try saturationReleaseSeconds ?? env.int("DRAWSERVER_SATURATION_RELEASE_SECONDS") {
            guard (1...600).contains(seconds) else { throw ValidationError("--saturation-release-seconds must be 1...600") }
            admission.releaseAfterMs = seconds * 1_000
        }
    }
}
