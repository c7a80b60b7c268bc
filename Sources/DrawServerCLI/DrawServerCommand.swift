import ArgumentParser
import DrawServer
import LoadTester

/// `drawserver`: the game server and its tools.
@main
struct DrawServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drawserver",
        abstract: "A real-time draw-and-guess game server.",
        subcommands: [ServeCommand.self, RenderCommand.self, TimelapseCommand.self, ExportCommand.self, BackupCommand.self, BenchCanvasCommand.self, BenchRoomsCommand.self, BenchMessagesCommand.self, BenchRelayCommand.self, ReplayCommand.self, BotCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
