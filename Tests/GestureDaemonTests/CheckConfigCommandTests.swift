import Foundation
import Testing

/// `gestured check-config` through the real binary: exit status and file:line:column on stderr.
@Suite struct CheckConfigCommandTests {
    @Test func defaultConfigIsValid() throws {
        let embedded = try runBinary("gestured", ["check-config"])
        #expect(embedded.status == 0)
        #expect(embedded.stdout.contains("ok (1 regions, 15 gestures, 0 bindings)"))
        let file = try runBinary("gestured", ["check-config", Paths.packageRoot + "/config/default.yaml"])
        #expect(file.status == 0, "\(file.stderr)")
    }

    @Test(arguments: [
        ("version: 1\ngestures:\n  - id: t\n    kind: tap\n    tapz: 2\n",
         ":5:5: unknown key 'tapz' in gesture 't' (did you mean 'taps'?)"),
        ("version: 1\ngestures:\n  - id: t\n    kind: tap\n    require-to-fail: [nope]\n",
         ":5:23: unknown gesture 'nope' in 'require-to-fail' of gesture 't'"),
        ("version: 1\ngestures:\n  - id: a\n    kind: tap\n    require-to-fail: [b]\n  - id: b\n    kind: tap\n    require-to-fail: [a]\n",
         "cycle"),
        ("version: 1\ngestures: [\n", ":3:1:"),
    ])
    func brokenConfigsNameFileLineAndColumn(yaml: String, expected: String) throws {
        let dir = TempDir()
        let path = dir.file("broken.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runBinary("gestured", ["check-config", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(path + ":"), "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }
}
