import ArgumentParser
import DrawProtocol
import Rooms

extension ServeCommand {
    /// Admission control's thresholds (docs/RELIABILITY.md, "Overload").
    func applyAdmission(to admission: inout SaturationDetector.Configuration, env: Environment) throws {
        if let lag = try DurationFlag.check(saturationLag ?? env.duration("DRAWSERVER_SATURATION_LAG_MS", .milliseconds), "saturation-lag", .zero ... .seconds(10)) {
            admission.lagThreshold = lag
        }
        if let after = try DurationFlag.check(saturationTime ?? env.duration("DRAWSERVER_SATURATION_SECONDS", .seconds), "saturation-time", .seconds(1) ... .seconds(600)) {
            admission.engageAfter = after
        }
        if let after = try DurationFlag.check(saturationRelease ?? env.duration("DRAWSERVER_SATURATION_RELEASE_SECONDS", .seconds), "saturation-release", .seconds(1) ... .seconds(600)) {
            admission.releaseAfter = after
        }
    }
}
