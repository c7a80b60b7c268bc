import ArgumentParser
import DrawServer
import LoadTester
import ProcessStats

/// `drawserver bench-relay`: the relay path inside one process, from a drawer's frame
/// through the room and every guesser's outbound queue to its writer on an event
/// loop, up to the socket write. The measuring is `LoadTester.RelayBenchmark`; the
/// server's side is `RelayPathHarness`.
struct BenchRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-relay",
        abstract: "Benchmark the in-process relay path: drawer -> room -> guessers' queues -> writers."
    )

    @Option(help: "Frames the drawer sends.")
    var frames = 200_000
    @Option(help: "Guessers receiving each frame (1 to 49: a room seats at most 50).")
    var guessers = 7
    @Flag(help: "Persist strokes to a temporary SQLite database, as in production.")
    var persist = false
    @Option(help: "Persist strokes to this PostgreSQL store instead (postgres://USER@HOST:PORT/DB), as a node of a cluster does; the room is written as node bench-relay.")
    var store: String?
    @Option(help: "Event-loop threads the writers run on (default: the cores this process may use).")
    var threads: Int?

    func validate() throws {
        guard (1...49).contains(guessers) else { throw ValidationError("--guessers must be 1...49 (a room seats at most 50)") }
    }

    func run() async throws {
        let persistence: RelayPathHarness.Persistence = if let store {
            .postgres(try PostgresStoreURL(parsing: store))
        } else if persist {
            .sqlite
        } else {
            .off
        }
        let path = try await RelayPathHarness(guessers: guessers, threads: threads ?? ProcStat.allowedCores(), persistence: persistence)
        let report = try await RelayBenchmark(frames: frames).run(path)
        print(report)
        guard report.isComplete else { throw ExitCode(ExitStatus.incomplete) }
    }

    /// Exit statuses beyond ArgumentParser's own.
    enum ExitStatus {
        /// Some guesser did not get every byte: the relay lost data.
        static let incomplete: Int32 = 3
    }
}
