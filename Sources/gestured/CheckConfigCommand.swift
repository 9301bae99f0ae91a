import ArgumentParser
import GestureConfig
import GestureCore
import GestureDaemon
import GesturePosix

/// `gestured check-config FILE`: validates a configuration; every error names file:line:column.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file.",
        discussion: """
            Prints every error as file:line:column: message and exits 1, or prints a one-line summary \
            and exits 0. With no file, checks the embedded default configuration.
            """)

    @Argument(help: "The YAML configuration file (default: the embedded default config).")
    var file: String?

    func run() throws {
        let configuration: Configuration
        let name = file ?? "(embedded default)"
        do {
            if let file {
                configuration = try ConfigurationLoader.load(path: file)
            } else {
                configuration = try ConfigurationLoader.parse(ConfigurationLoader.defaultYAML, file: name)
            }
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        let regions = countRegions(configuration.engine.root)
        print("\(name): ok (\(regions) regions, \(configuration.engine.recognizers.count) gestures, "
              + "\(configuration.bindings.count) bindings)")
    }

    private func countRegions(_ region: RegionSpec) -> Int {
        1 + region.children.reduce(0) { $0 + countRegions($1) }
    }
}
