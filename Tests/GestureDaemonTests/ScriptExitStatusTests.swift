import Foundation
import Testing

/// The repository's entry points (`scripts/test`, the README's test command; `scripts/run`, the main
/// job; `.ci/run`, CI) must fail when the build fails, never go on to test or run a stale binary.
/// Each runs here with a `swift` on PATH whose every build fails with a type error and whose
/// `swift test` would pass, and a `dpkg` that says every package is installed (nothing is installed).
@Suite struct ScriptExitStatusTests {
    /// Runs `script` (relative to the package root) with the stand-ins first on PATH; its exit
    /// status, its output, and every `swift` command it ran.
    static func run(_ script: String) throws -> (status: Int32, output: String, swiftCalls: [String]) {
        let dir = TempDir()
        let calls = dir.file("swift-calls")
        let swift = """
            #!/bin/sh
            echo "$*" >> "\(calls)"
            case "$1" in
              build)
                case " $* " in *" --show-bin-path "*) echo "\(dir.path)/no-such-bin"; exit 0;; esac
                echo "Sources/GestureCore/Broken.swift:1:13: error: cannot convert value of type 'Int' to specified type 'String'" >&2
                exit 1;;
              test)
                echo "✔ Test run with 1 test in 1 suite passed after 0.001 seconds."
                exit 0;;
            esac
            exit 0
            """
        let dpkg = "#!/bin/sh\nexit 0\n"
        for (name, text) in [("swift", swift), ("dpkg", dpkg)] {
            #expect(FileManager.default.createFile(atPath: dir.file(name), contents: Data(text.utf8),
                                                   attributes: [.posixPermissions: 0o755]))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Paths.packageRoot + "/" + script]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = dir.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["CI"] = "true"
        process.environment = environment
        let outputPath = dir.file("output")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let swiftCalls = ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
        return (process.terminationStatus, text, swiftCalls)
    }

    @Test(arguments: ["scripts/test", ".ci/run"])
    func aBrokenBuildFailsTheTestCommands(script: String) throws {
        let result = try Self.run(script)
        #expect(result.status != 0, "\(script) exited 0 after a failed build:\n\(result.output)")
        #expect(result.output.contains("error: cannot convert value"), "the build's error is shown:\n\(result.output)")
        #expect(result.swiftCalls.contains { $0.hasPrefix("build") }, "\(result.swiftCalls)")
        #expect(!result.swiftCalls.contains { $0.hasPrefix("test") }, "tests ran on a stale binary: \(result.swiftCalls)")
    }

    @Test func aBrokenBuildFailsTheMainJob() throws {
        let result = try Self.run("scripts/run")
        #expect(result.status != 0, "scripts/run exited 0 after a failed build:\n\(result.output)")
        #expect(result.output.contains("error: cannot convert value"), "\(result.output)")
        #expect(!result.output.contains("replaying bundled recordings"), "it went on to run:\n\(result.output)")
    }
}
