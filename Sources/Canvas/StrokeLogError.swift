/// A stroke log problem, tied to the 1-based line it was found on.
public struct StrokeLogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based, counting the header as line 1 and blank lines too, as editors do.
    public var line: Int
    /// What is wrong, without the line number.
    public var message: String

    /// An error at a line.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`, ready for a command-line error.
    public var description: String { "line \(line): \(message)" }
}
