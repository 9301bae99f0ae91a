import ArgumentParser
import GestureConfig
import GestureCore
import GestureDaemon
import GesturePosix

/// `gestured check-config [FILE]`: validates a configuration as `gestured run` would load it, and
/// what it needs from this machine to start (the socket's group, owner and directory); every error
/// names file:line:column.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file, and that gestured run could start with it here.",
        discussion: """
            Prints every error as file:line:column: message and exits 1, or prints a one-line summary \
            and exits 0. With no file, checks the file `gestured run` would load ($GESTURED_CONFIG, \
            else ~/.config/gestured/gestured.yaml (not as root), else /etc/gestured/gestured.yaml, \
            else the embedded default) and says which. Besides the file itself it checks what would \
            stop `gestured run` starting on this machine as this user: a socket group or owner that \
            does not exist or cannot be given the socket, a socket directory that cannot be made.
            """)

    @Argument(help: "The YAML configuration file (default: the file `gestured run` would load).")
    var file: String?

    @Flag(name: .long, help: "Check the embedded default configuration.")
    var embeddedDefault = false

    @Option(name: .long, help: "The socket path `gestured run` would be given (overrides the config's socket.path).")
    var socket: String?

    func run() throws {
        if embeddedDefault && file != nil {
            throw ValidationError("give a file or --embedded-default, not both")
        }
        var path = file
        var name = file ?? ConfigurationLoader.defaultFileName
        if file == nil && !embeddedDefault {
            let choice = defaultConfigurationChoice()
            print("checking \(choice.description)")
            path = choice.path
            name = choice.path ?? ConfigurationLoader.defaultFileName
        }
        let configuration: Configuration
        do throws(ConfigErrors) {
            if let path {
                configuration = try ConfigurationLoader.load(path: path)
            } else {
                configuration = try ConfigurationLoader.parse(ConfigurationLoader.defaultYAML,
                                                              file: ConfigurationLoader.defaultFileName)
            }
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        let problems = startupProblems(configuration, socketOverride: socket, socketActivated: false)
        if !problems.isEmpty {
            writeStandardError(ConfigErrors(errors: problems).description + "\n")
            throw ExitCode(1)
        }
        func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        // Gestures count the screen's and the window rules' alike (each rule's once, however many
        // windows it will match); the rules are named when there are any.
        let rules = configuration.engine.windowRules
        let gestures = configuration.engine.recognizers.count + rules.reduce(0) { $0 + $1.gestures.count }
        let ruleText = rules.isEmpty ? "" : ", \(counted(rules.count, "window rule")): " + rules.map(\.id).joined(separator: ", ")
        print("\(name): ok (\(counted(countRegions(configuration.engine.root), "region")), "
              + "\(counted(gestures, "gesture")), \(counted(configuration.bindings.count, "binding"))\(ruleText))")
    }

    private func countRegions(_ region: RegionSpec) -> Int {
        1 + region.children.reduce(0) { $0 + countRegions($1) }
    }
}
