#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureConfig
import GestureCore
import GestureDaemon
import GesturePosix
import GestureReport

/// `gestured tune FILES...`: measures labelled samples, fits the config's thresholds to them, and
/// says what it would change (docs/tune.md). Writes nothing without `--write`.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Fit the config's thresholds to your own labelled recordings.",
        discussion: """
            Each file (or each labelled file of a folder) is a sample named NAME.GESTURE.evemu (or \
            .events, .yaml): GESTURE is a gesture id of the config, or none for a sample that must \
            give no gesture. Prints, per gesture, the samples measured on what its recognizer decides \
            on, today's thresholds, the proposed ones and their margins, why samples fail, and how \
            many samples are right today, tuned, and left out of the fit; conflicts no threshold can \
            resolve are said, not forced. Proposals stay within the sane ranges of \
            docs/configuration.md and above the device's noise. Text on a terminal, JSON otherwise. \
            Exit 0; 1 when a sample or the config cannot be read or the tuned config cannot be written.
            """)

    @Argument(help: "Labelled recordings, or folders of them.")
    var files: [String]

    @Option(name: .long, help: "Configuration file (default: the file `gestured run` would load).")
    var config: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write the tuned config here (comments kept; each changed value says what it was). Nothing is written without it.",
        valueName: "out.yaml"))
    var write: String?

    @Option(name: .long, help: ArgumentHelp(
        "Output format: text (aligned, for people) or json (one object).",
        discussion: "Default: text when stdout is a terminal, json otherwise."))
    var format: OutputFormat?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one labelled recording or folder") }
    }

    func run() throws {
        let path = config ?? defaultConfigurationPath()
        let configuration: Configuration
        let source: String
        do throws(ConfigErrors) {
            if let path {
                configuration = try ConfigurationLoader.load(path: path)
                guard case .success(let bytes) = readWholeFile(path) else { throw ConfigErrors(errors: []) }
                source = String(decoding: bytes, as: UTF8.self)
            } else {
                configuration = ConfigurationLoader.loadDefault()
                source = ConfigurationLoader.defaultYAML
            }
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        let samples: [LabelledRecording]
        do {
            samples = try TuneSamples.load(files, configuration: configuration)
        } catch {
            writeStandardError(error.description + "\n")
            throw ExitCode(1)
        }
        let report = TuneReport.make(samples: samples, configuration: configuration)
        var written: String?
        if let write {
            do {
                let text = try TunedConfigWriter.write(source, file: write, proposals: report.proposals)
                try writeFile(text, to: write)
                written = write
            } catch {
                writeStandardError("gestured tune: \(error)\n")
                throw ExitCode(1)
            }
        }
        switch format ?? .automatic() {
        case .json: print(report.jsonLine(written: written))
        case .text:
            print("tuning \(path ?? "the embedded default config") with \(samples.count) samples")
            for line in report.textLines(width: OutputFormat.textWidth, written: written) { print(line) }
        }
    }
}

struct WriteFailure: Error, CustomStringConvertible {
    var description: String
}

/// Writes `text` to `path` through a temporary file beside it, renamed into place.
func writeFile(_ text: String, to path: String) throws {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw WriteFailure(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
    let bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
    if case .failure(let error) = bytes.withUnsafeBytes({ writeFully(fd, $0) }) {
        close(fd)
        unlink(temporary)
        throw WriteFailure(description: "cannot write \(temporary): \(error)")
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
        let message = String(cString: strerror(errno))
        unlink(temporary)
        throw WriteFailure(description: "cannot write \(path): \(message)")
    }
}
