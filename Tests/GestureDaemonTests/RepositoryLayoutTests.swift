import Foundation
import Testing

/// What a newcomer finds: a performance doc read in minutes, the profiling tools in one folder
/// apart from the scripts a user needs, and every script the docs name where they say it is.
@Suite struct RepositoryLayoutTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
    }

    @Test func thePerformanceDocIsAShortReference() throws {
        let doc = try Self.read("docs/performance.md")
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 200, "docs/performance.md has \(lines) lines; the history belongs in git")
        for section in ["## The figures now", "## How each figure is measured", "## The principles that got there",
                        "## What was tried and did not help"] {
            #expect(doc.contains(section + "\n"), "docs/performance.md lacks '\(section)'")
        }
    }

    @Test func profilingToolsLiveInTheirOwnFolderWithAReadme() throws {
        let top = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/scripts")
        let profiling = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/scripts/profiling")
        #expect(Set(top) == ["run", "test", "install-deps", "check-golden", "check-units", "embed-default-config.sh",
                             "generate-key-names", "recordings-table", "package", "test-package", "build-info",
                             "generate-man", "check-format", "generate-gnome-extension", "debian-root", "lib", "generate-setup-docs", "profiling"], "\(top.sorted())")
        let readme = try Self.read("scripts/profiling/README.md")
        for script in profiling where script != "README.md" {
            #expect(readme.contains("`" + script), "scripts/profiling/README.md does not describe \(script)")
        }
    }

    /// Every `scripts/NAME` the README, the docs, the CI, the VM test and the sources name exists.
    @Test func everyScriptNamedExists() throws {
        var files = ["README.md", ".ci/run", "Package.swift", "scripts/profiling/README.md"]
        let enumerator = FileManager.default.enumerator(atPath: Paths.packageRoot)
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix(".build") || path.hasPrefix(".git") { enumerator?.skipDescendants(); continue }
            if path.hasPrefix("docs/") && path.hasSuffix(".md") || path.hasPrefix("Tests/vm/")
                || path.hasPrefix("Sources/") && path.hasSuffix(".swift") || path.hasPrefix("scripts/") {
                files.append(path)
            }
        }
        let pattern = try Regex(#"scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_]"#)
        var missing: [String] = []
        for file in files {
            guard let text = try? Self.read(file) else { continue }
            for match in text.matches(of: pattern) {
                let name = String(text[match.range])
                if !FileManager.default.fileExists(atPath: Paths.packageRoot + "/" + name) { missing.append("\(file): \(name)") }
            }
        }
        #expect(missing.isEmpty, "\(Set(missing).sorted())")
    }

    /// The README's "systemd and udev" describes every unit the repository ships.
    @Test func theReadmeDescribesEveryUnit() throws {
        let readme = try Self.read("README.md")
        let section = try #require(readme.components(separatedBy: "\n## systemd and udev\n").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        for folder in ["systemd", "systemd/user"] {
            for unit in try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/" + folder)
            where unit.hasSuffix(".service") || unit.hasSuffix(".socket") {
                #expect(section.contains("`\(folder)/\(unit)`"), "README.md, \"systemd and udev\", does not describe \(folder)/\(unit)")
            }
        }
    }
}
