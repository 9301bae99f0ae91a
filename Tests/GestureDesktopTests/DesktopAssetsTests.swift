import Foundation
import GestureCore
@testable import GestureDesktop
import Testing

/// The desktop side's own files: where they are found (the package's, the checkout's), the GNOME
/// extension's two variants written from one source, the variant a Shell version needs, what the
/// Shell's answer about the extension means, and the package's program that links the variant.
@Suite struct DesktopAssetsTests {
    static let checkout: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: checkout + "/" + relative, encoding: .utf8)
    }

    /// What scripts/generate-gnome-extension writes, assembled here the same way.
    @Test(arguments: [("43", "GNOME 43 and 44 (legacy imports)", "[\"43\", \"44\"]"),
                      ("45", "GNOME 45 and later (ES modules)", "[\"45\", \"46\", \"47\", \"48\", \"49\"]")])
    func theVariantsAreWrittenFromTheirOneSource(variant: String, what: String, versions: String) throws {
        let src = "desktop/gnome-shell/src/"
        let expected = "// gestured's GNOME Shell extension, \(what). Written by scripts/generate-gnome-extension from\n"
            + "// desktop/gnome-shell/src (head-\(variant).js, exporter.js, tail-\(variant).js): edit those; docs/desktop.md, \"GNOME\".\n"
            + (try Self.read(src + "head-\(variant).js")) + "// BEGIN exporter\n" + (try Self.read(src + "exporter.js"))
            + "// END exporter\n" + (try Self.read(src + "tail-\(variant).js"))
        let written = try Self.read("desktop/gnome-shell/\(variant)/gestured@gestured.org/extension.js")
        #expect(written == expected, "desktop/gnome-shell/\(variant)/gestured@gestured.org/extension.js is not what its source makes: run scripts/generate-gnome-extension")
        let metadata = try Self.read(src + "metadata.json").replacingOccurrences(of: "\"shell-version\": []", with: "\"shell-version\": \(versions)")
        #expect(try Self.read("desktop/gnome-shell/\(variant)/gestured@gestured.org/metadata.json") == metadata,
                "desktop/gnome-shell/\(variant)/gestured@gestured.org/metadata.json is not current: run scripts/generate-gnome-extension")
    }

    @Test func eachVariantListsTheShellsThatLoadIt() throws {
        for variant in GnomeExtensionVariant.allCases {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.checkout + "/desktop/" + variant.folder + "/metadata.json"))
            let versions = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["shell-version"] as? [String])
            for version in versions {
                #expect(GnomeExtensionVariant(shellVersion: version) == variant, "\(variant.folder) lists GNOME \(version)")
            }
        }
    }

    @Test func theVariantFollowsTheShellsMajorVersion() {
        #expect(GnomeExtensionVariant(shellVersion: "43.9") == .legacy)
        #expect(GnomeExtensionVariant(shellVersion: "44.10") == .legacy)
        #expect(GnomeExtensionVariant(shellVersion: "45.0") == .modules)
        #expect(GnomeExtensionVariant(shellVersion: "48.7") == .modules)
        #expect(GnomeExtensionVariant(shellVersion: "49.beta") == .modules)
        #expect(GnomeExtensionVariant(shellVersion: "unknown") == nil)
    }

    @Test func rootsAreTriedInOrderAndTheCheckoutIsFoundAboveTheSource() {
        let exists: (String) -> Bool = { $0 == "/src/tree/Package.swift" || $0 == "/src/tree/desktop/kwin/gestured.js" }
        let roots = DesktopAssets.roots(environment: ["GESTURED_DESKTOP_DIR": "/opt/mine"], executable: "/usr/local/bin/gesturectl",
                                        sourceFile: "/src/tree/Sources/GestureDesktop/Bridge/DesktopAssets.swift", exists: exists)
        #expect(roots == ["/opt/mine", "/usr/local/share/gestured", "/usr/share/gestured", "/src/tree/desktop"])
        // Installed in /usr: the prefix's copy is the package's; no checkout above an installed source path.
        #expect(DesktopAssets.roots(environment: [:], executable: ["", "usr", "bin", "gesturectl"].joined(separator: "/"), sourceFile: "/build/x/DesktopAssets.swift",
                                    exists: { _ in false }) == ["/usr/share/gestured"])
    }

    /// A binary built from this checkout, run with no package installed, finds the checkout's script
    /// and both extension variants.
    @Test func aCheckoutBuildFindsTheCheckoutsFiles() throws {
        let notInstalled: (String) -> Bool = { !$0.hasPrefix("/usr/share/gestured") && DesktopAssets.readable($0) }
        let script = DesktopAssets.locate(DesktopAssets.kwinScript, environment: [:], executable: nil, exists: notInstalled)
        #expect(try script.get() == Self.checkout + "/desktop/kwin/gestured.js")
        let nowhere = DesktopAssets.locate(DesktopAssets.kwinScript, environment: [:], executable: nil, exists: { _ in false })
        guard case .failure(let missing) = nowhere else { Issue.record("found in nowhere"); return }
        #expect(missing.description.contains("/usr/share/gestured/kwin/gestured.js"))
        #expect(missing.description.contains("set GESTURED_DESKTOP_DIR to a copy of the checkout's desktop/ folder"))
    }

    static func info(_ state: Int, path: String = "/usr/share/gnome-shell/extensions/gestured@gestured.org", error: String? = nil) -> DesktopJSON {
        var fields: [(String, DesktopJSON)] = [("state", .object([("type", .string("d")), ("data", .number(Double(state)))])),
                                               ("path", .object([("type", .string("s")), ("data", .string(path))]))]
        if let error { fields.append(("error", .object([("type", .string("s")), ("data", .string(error))]))) }
        return .object(fields)
    }

    @Test func whatTheShellSaysOfTheExtension() {
        let path = "/usr/share/gnome-shell/extensions/gestured@gestured.org"
        func classify(_ info: DesktopJSON?, owner: Bool = false, found: GnomeExtensionVariant? = .modules) -> GnomeExtensionState {
            GnomeExtensionState.classify(info: info, ownerPresent: owner, needed: .modules, variantAt: { _ in found })
        }
        #expect(classify(nil) == .notInstalled)
        #expect(classify(.object([])) == .notInstalled)
        #expect(classify(Self.info(1), owner: true) == .running(path: path))
        #expect(classify(Self.info(1), owner: false) == .enabledNotRunning(path: path))
        #expect(classify(Self.info(2)) == .disabled(path: path))
        #expect(classify(Self.info(2), found: .legacy) == .wrongVariant(path: path, found: .legacy, needed: .modules))
        #expect(classify(Self.info(4), found: .legacy) == .wrongVariant(path: path, found: .legacy, needed: .modules))
        #expect(classify(Self.info(3, error: "SyntaxError: import declarations"), found: .legacy)
                == .wrongVariant(path: path, found: .legacy, needed: .modules))
        #expect(classify(Self.info(3, error: "TypeError: x is undefined")) == .failed(path: path, error: "TypeError: x is undefined"))
        #expect(classify(Self.info(99)) == .notInstalled)
        // Each problem has its fix; the disabled one is the one command the user runs.
        let disabled = GnomeExtensionState.disabled(path: path).explanation(shell: "GNOME Shell 48.7", install: "INSTALL")
        #expect(disabled.fix == "run: gnome-extensions enable gestured@gestured.org")
        let wrong = GnomeExtensionState.wrongVariant(path: path, found: .legacy, needed: .modules).explanation(shell: "GNOME Shell 48.7", install: "INSTALL")
        #expect(wrong.problem == "\(path) holds the variant for GNOME Shell 43 and 44; GNOME Shell 48.7 needs the one for GNOME Shell 45 and later")
        #expect(wrong.fix == "INSTALL")
        #expect(GnomeExtensionState.running(path: path).explanation(shell: "x", install: "y").fix == nil)
        #expect(GnomeExtensionState.installFix(needed: .modules, packaged: false, copy: "/src/desktop/gnome-shell/45/gestured@gestured.org")
                .contains("ln -sfn /src/desktop/gnome-shell/45/gestured@gestured.org ~/.local/share/gnome-shell/extensions/gestured@gestured.org"))
        #expect(GnomeExtensionState.installFix(needed: .legacy, packaged: true, copy: nil).contains("sudo /usr/libexec/gestured/gnome-shell-extension"))
    }

    @Test func theReportSaysWhatIsMissingAndItsFix() {
        let text = DesktopCheck.text([DesktopCheck.Item(.ok, "the desktop: sway at /run/sway.sock"),
                                      DesktopCheck.Item(.missing, "the gestured Shell extension is installed but not enabled",
                                                        fix: "run: gnome-extensions enable gestured@gestured.org")])
        #expect(text == """
            ok       the desktop: sway at /run/sway.sock
            MISSING  the gestured Shell extension is installed but not enabled
                     fix: run: gnome-extensions enable gestured@gestured.org
            1 thing missing

            """)
    }

    @Test func noDesktopInTheEnvironmentIsMissingWithItsFix() {
        let items = DesktopCheck.run(environment: [:], forced: nil, kwinScript: nil)
        #expect(items.count == 1)
        #expect(items.first?.status == .missing)
        #expect(items.first?.what.contains("$SWAYSOCK") == true)
        #expect(items.first?.fix?.contains("--backend") == true)
    }

    /// The package's chooser (desktop/gnome-shell/choose-variant, installed as
    /// /usr/libexec/gestured/gnome-shell-extension) with a stand-in dpkg-query saying which Shell is installed.
    @Test(arguments: [("43.9-0+deb12u2", "43"), ("48.7-0+deb13u1", "45"), ("1:49.1-1", "45"), ("", "")])
    func theChooserLinksTheVariantOfTheInstalledShell(version: String, variant: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chooser-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bin = dir + "/bin", extensions = dir + "/extensions"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let status = version.isEmpty ? "not-installed" : "installed"
        try """
            #!/bin/sh
            case "$2" in *Status*) printf '%s' '\(status)' ;; *) printf '%s' '\(version)' ;; esac
            """.write(toFile: bin + "/dpkg-query", atomically: true, encoding: .utf8)
        chmod(bin + "/dpkg-query", 0o755)
        // The chooser asks gnome-shell itself when dpkg knows none: a stand-in answering nothing, so
        // a GNOME Shell installed on the test machine is not the one found.
        try "#!/bin/sh\nexit 1\n".write(toFile: bin + "/gnome-shell", atomically: true, encoding: .utf8)
        chmod(bin + "/gnome-shell", 0o755)
        // A link made for another Shell before: chosen again.
        try FileManager.default.createDirectory(atPath: extensions, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: extensions + "/gestured@gestured.org", withDestinationPath: "/elsewhere")
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/bin/sh")
        run.arguments = [Self.checkout + "/desktop/gnome-shell/choose-variant"]
        run.environment = ["PATH": bin + ":/usr/bin:/bin", "GESTURED_SHARE": "/usr/share/gestured", "GNOME_SHELL_EXTENSIONS": extensions]
        run.standardOutput = FileHandle.nullDevice
        try run.run()
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: extensions + "/gestured@gestured.org")
        if variant.isEmpty {
            #expect(link == nil, "no GNOME Shell: the link is taken away")
        } else {
            #expect(link == "/usr/share/gestured/gnome-shell/\(variant)/gestured@gestured.org")
        }
    }

    @Test func theChooserLeavesACopyPutThereByHand() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chooser-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/extensions/gestured@gestured.org"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/bin/sh")
        run.arguments = [Self.checkout + "/desktop/gnome-shell/choose-variant"]
        run.environment = ["PATH": "/usr/bin:/bin", "GNOME_SHELL_EXTENSIONS": dir + "/extensions"]
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: copy, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: copy)) == nil)
    }
}
