import Foundation
import Testing

/// The user unit is part of the graphical session, and the recipes say how a compositor that does
/// not start that target gives gestured its environment: the line the recipe shows, run by a
/// shell as sway runs its `exec` lines, imports the environment before it (re)starts gestured.
@Suite struct SessionUnitTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
    }

    /// `Key=value` lines of a unit section.
    static func settings(_ unit: String, section: String) -> [String] {
        var inSection = false
        var found: [String] = []
        for line in unit.split(separator: "\n").map(String.init) {
            if line.hasPrefix("[") { inSection = line == "[\(section)]"; continue }
            if inSection, !line.hasPrefix("#"), line.contains("=") { found.append(line) }
        }
        return found
    }

    @Test func theUserUnitIsPartOfTheGraphicalSession() throws {
        let unit = try Self.read("systemd/user/gestured.service")
        let settings = Self.settings(unit, section: "Unit")
        #expect(settings.contains("After=graphical-session.target"))
        #expect(settings.contains("PartOf=graphical-session.target"))
        #expect(Self.settings(unit, section: "Install") == ["WantedBy=graphical-session.target"])
    }

    /// The sway recipe's `exec` line, as sway runs it (`sh -c`), with a `systemctl` that writes
    /// down what it was asked and with which SWAYSOCK.
    @Test func theSwayRecipeImportsTheEnvironmentThenRestartsGestured() throws {
        let recipes = try Self.read("docs/recipes.md")
        let sway = try #require(recipes.components(separatedBy: "\n## Sway\n").last?.components(separatedBy: "\n## ").first)
        let exec = try #require(sway.split(separator: "\n").first { $0.hasPrefix("exec ") }.map { String($0.dropFirst(5)) },
                                "the Sway recipe lost its exec line")
        // The unit's comment shows the same line.
        #expect(try Self.read("systemd/user/gestured.service").contains("#   exec " + exec))
        let dir = TempDir()
        let fake = dir.file("systemctl")
        try "#!/bin/sh\necho \"$* SWAYSOCK=$SWAYSOCK\" >> \"\(dir.file("calls"))\"\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        let run = try runTool("/bin/sh", ["-c", exec], environment: [
            "PATH": dir.path + ":/usr/bin:/bin", "SWAYSOCK": "/run/user/1000/sway-ipc.1000.42.sock"])
        #expect(run.status == 0, "\(run.stderr)")
        let calls = (try? String(contentsOfFile: dir.file("calls"), encoding: .utf8)) ?? ""
        let lines = calls.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(calls)")
        #expect(lines.first?.hasPrefix("--user import-environment SWAYSOCK WAYLAND_DISPLAY") == true, "\(calls)")
        // The daemon and the bridge both (re)started with the session's variables.
        #expect(lines.last == "--user restart gestured.service gestured-desktop.service SWAYSOCK=/run/user/1000/sway-ipc.1000.42.sock", "\(calls)")
    }

    @Test func theRecipesPointToForwardingNotToAGrab() throws {
        let recipes = try Self.read("docs/recipes.md")
        #expect(!recipes.contains("grab: true"))
        #expect(recipes.contains("devices: { forward: true }"))
    }
}
