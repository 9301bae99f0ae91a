import Foundation
import Testing

/// The output shown in the docs is the programs' real output: every block after an
/// `<!-- output of: COMMAND -->` marker (its first line `$ COMMAND`) is compared with what the
/// built binary prints for COMMAND, run from the package root in 80 columns.
@Suite struct DocExamplesTests {
    struct Example: CustomStringConvertible {
        var file: String
        var line: Int
        var command: String
        var expected: String
        var description: String { "\(file):\(line): \(command)" }
    }

    /// Every marked example of the markdown files named.
    static func examples(in files: [String]) throws -> [Example] {
        var found: [Example] = []
        for file in files {
            let lines = try String(contentsOfFile: Paths.packageRoot + "/" + file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (i, line) in lines.enumerated() where line.hasPrefix("<!-- output of: ") && line.hasSuffix(" -->") {
                let command = String(line.dropFirst("<!-- output of: ".count).dropLast(" -->".count))
                guard i + 2 < lines.count, lines[i + 1] == "```", lines[i + 2] == "$ " + command,
                      let end = lines[(i + 3)...].firstIndex(of: "```") else {
                    Issue.record("\(file):\(i + 1): an output marker must be followed by a ``` block starting with '$ \(command)'")
                    continue
                }
                found.append(Example(file: file, line: i + 1, command: command,
                                     expected: lines[(i + 3)..<end].joined(separator: "\n") + "\n"))
            }
        }
        return found
    }

    /// Splits a command line as a shell would for plain words and double-quoted ones.
    static func words(_ command: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for c in command {
            if c == "\"" { quoted.toggle(); started = true; continue }
            if c == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
                continue
            }
            current.append(c)
            started = true
        }
        if started { words.append(current) }
        return words
    }

    static func run(_ command: String) throws -> String {
        let words = Self.words(command)
        let dir = TempDir()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary(words[0]))
        process.arguments = Array(words.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: Paths.packageRoot)
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        environment["GESTURED_CONFIG"] = nil
        environment["XDG_CONFIG_HOME"] = dir.path
        process.environment = environment
        _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: dir.file("out"))
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        process.waitUntilExit()
        return (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? ""
    }

    @Test func theOutputShownInTheDocsIsWhatTheProgramsPrint() throws {
        let examples = try Self.examples(in: ["docs/replay-tools.md", "README.md", "docs/protocol.md"])
        #expect(examples.count >= 4, "the marked examples went missing: \(examples)")
        for example in examples {
            let actual = try Self.run(example.command)
            #expect(actual == example.expected, "\(example) prints:\n\(actual)")
        }
    }
}
