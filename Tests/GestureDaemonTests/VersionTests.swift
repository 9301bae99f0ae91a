import Foundation
import GestureProtocol
import Testing

/// The version and commit written in by scripts/build-info (the BuildInfo plugin) before each build.
@Suite struct VersionTests {
    /// The version on debian/changelog's first line, `gestured (0.1.0) unstable; ...`.
    static func changelogVersion() throws -> String {
        let text = try String(contentsOfFile: Paths.packageRoot + "/debian/changelog", encoding: .utf8)
        let first = text.prefix { $0 != "\n" }
        guard let open = first.firstIndex(of: "("), let close = first.firstIndex(of: ")") else {
            throw DaemonTestError("debian/changelog: no (version) on its first line: \(first)")
        }
        return String(first[first.index(after: open)..<close])
    }

    @Test func versionIsTheChangelogs() throws {
        #expect(DaemonVersion.version == (try Self.changelogVersion()))
    }

    @Test func commitIsThisCheckoutsHead() throws {
        let git = try runTool("/usr/bin/git", ["-C", Paths.packageRoot, "rev-parse", "--short=12", "HEAD"])
        try #require(git.status == 0, "git rev-parse: \(git.stderr)")
        let head = git.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(DaemonVersion.commit == head || DaemonVersion.commit == head + "-dirty",
                "built from \(DaemonVersion.commit), the checkout is at \(head): rebuild")
    }

    @Test(arguments: ["gestured", "gesturectl"])
    func binaryPrintsVersionAndCommit(_ name: String) throws {
        let result = try runBinary(name, ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "\(try Self.changelogVersion()) (commit \(DaemonVersion.commit))\n")
    }

    @Test func helloCarriesTheVersionAndCommit() throws {
        let hello = json(DaemonVersion.helloLine)
        #expect(hello["version"] as? String == (try Self.changelogVersion()))
        #expect(hello["commit"] as? String == DaemonVersion.commit)
        #expect(DaemonVersion.commit != "unknown")
    }
}
