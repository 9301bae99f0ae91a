import ArgumentParser
import GestureDaemon

@main
struct GestureCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturectl", abstract: "Client for the gestured socket.", version: DaemonVersion.version)
    func run() throws {}
}
