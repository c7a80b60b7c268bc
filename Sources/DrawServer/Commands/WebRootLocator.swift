import Foundation

/// Finds the browser client when `--web-root` is not given, so `drawserver serve` works
/// from any working directory: `web-static` in the working directory, else next to the
/// executable or up to three folders above it (a `.build/release/drawserver` finds the
/// checkout's client).
enum WebRootLocator {
    static let folderName = "web-static"

    /// The first candidate folder holding an `index.html`, or nil.
    static func locate(executable: URL? = executableURL, fileManager: FileManager = .default) -> String? {
        var candidates = [URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent(folderName)]
        if var folder = executable?.deletingLastPathComponent() {
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent(folderName))
                folder = folder.deletingLastPathComponent()
            }
        }
        return candidates.first { hasClient($0.path, fileManager: fileManager) }?.path
    }

    static func hasClient(_ path: String, fileManager: FileManager = .default) -> Bool {
        fileManager.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent("index.html").path)
    }

    /// This process's executable, symbolic links resolved.
    static var executableURL: URL? {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
}
