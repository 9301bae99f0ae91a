import ArgumentParser
import GestureDaemon
import GestureProtocol

@main
struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured", abstract: "Linux multitouch gesture daemon.", version: DaemonVersion.versionText,
        subcommands: [
            RunCommand.self,
            ReplayCommand.self,
            CheckConfigCommand.self,
            TuneCommand.self,
        ],
        defaultSubcommand: RunCommand.self)
}
