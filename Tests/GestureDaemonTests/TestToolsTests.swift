import Foundation
import Testing

/// The programs the tests run, as `scripts/test` installs them (its `tools=(PROGRAM:PACKAGE …)` list).
enum TestTools {
    /// PROGRAM → Debian package, read from scripts/test.
    static func packages() throws -> [String: String] {
        let script = try String(contentsOfFile: Paths.packageRoot + "/scripts/test", encoding: .utf8)
        let list = try #require(script.components(separatedBy: "\ntools=(").dropFirst().first?
            .components(separatedBy: "\n)").first, "scripts/test lost its tools=( … ) list")
        var packages: [String: String] = [:]
        for pair in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: ":", maxSplits: 1).map(String.init)
            try #require(parts.count == 2, "scripts/test: '\(pair)' is not PROGRAM:PACKAGE")
            packages[parts[0]] = parts[1]
        }
        return packages
    }

    /// Fails the test at once, naming the Debian package, when `program` is not on the PATH
    /// (scripts/test installs it; a bare `swift test` may run without it).
    static func require(_ program: String) throws {
        let package = try packages()[program]
        try #require(package != nil, "\(program) is not in scripts/test's tools=( … ) list: add PROGRAM:PACKAGE there")
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        try #require(path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") },
                     "\(program) is missing: install the Debian package \(package!) (scripts/test installs it)")
    }
}

@Suite struct TestToolsTests {
    /// scripts/test's install-deps line names the package of every program of its tools list.
    @Test func theInstallLineNamesEveryToolsPackage() throws {
        let script = try String(contentsOfFile: Paths.packageRoot + "/scripts/test", encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("scripts/install-deps ") },
                                "scripts/test lost its install-deps line")
        let installed = Set(line.split(separator: " ").dropFirst().map(String.init))
        let needed = Set(try TestTools.packages().values)
        #expect(needed.subtracting(installed).isEmpty,
                "scripts/test's install-deps line lacks \(needed.subtracting(installed).sorted())")
    }

    /// Every program the test sources run by path (a string literal of /usr/bin/…, /bin/…), through
    /// `/usr/bin/env` (its first argument after options and assignments, in the same call or in the
    /// next `arguments = [`), or in a README line the tests run as a shell pipeline.
    static func programsTheTestsRun() throws -> Set<String> {
        var programs: Set<String> = []
        let byPath = try Regex(#""/(?:usr/)?s?bin/([A-Za-z0-9._+-]+)""#)
        let throughEnv = try Regex(
            #""/usr/bin/env"\)?[,\s]*(?:[A-Za-z.]+\.arguments\s*=\s*)?\[?\s*(?:"-i",\s*)?(?:"[A-Z_]+=[^"]*",\s*)*"([a-z][a-z0-9._+-]*)""#)
        let root = Paths.packageRoot + "/Tests"
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8)
            else { continue }
            for match in text.matches(of: byPath) { programs.insert(String(text[match.output[1].range!])) }
            for match in text.matches(of: throughEnv) { programs.insert(String(text[match.output[1].range!])) }
        }
        // HalfClosedClientTests runs the README's `socat … | jq …` line.
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("socat ") })
        for stage in line.split(separator: "|") {
            if let word = stage.split(separator: " ").first { programs.insert(String(word)) }
        }
        return programs
    }

    @Test func scriptsTestInstallsEveryProgramTheTestsRun() throws {
        let installed = try TestTools.packages()
        let programs = try Self.programsTheTestsRun()
        #expect(programs.isSuperset(of: ["socat", "jq", "tmux", "rsvg-convert", "python3", "man", "git"]), "\(programs.sorted())")
        let missing = programs.subtracting(installed.keys).sorted()
        #expect(missing.isEmpty, "the tests run \(missing) but scripts/test's tools=( … ) list does not install them")
    }

    @Test func theListNamesInstalledPrograms() throws {
        for program in try TestTools.packages().keys.sorted() { try TestTools.require(program) }
    }
}
