import Foundation
import Testing

/// The man pages in man/: written by scripts/generate-man from the binaries' argument descriptions,
/// man/src/*.md and docs/configuration.md; rendered here by man-db (groff) as a reader sees them.
@Suite struct ManPageTests {
    static let pages = ["gestured.1", "gesturectl.1", "gestured.yaml.5"]

    /// The page as `man` prints it to a pipe (80 columns, no formatting), and what groff warned.
    static func render(_ page: String) throws -> RunResult {
        try runTool("/usr/bin/env", ["LC_ALL=C.UTF-8", "MANWIDTH=80", "MAN_DISABLE_SECCOMP=1",
                                     "man", "--warnings", "-l", Paths.packageRoot + "/man/" + page])
    }

    /// Section headings: the lines that start in the first column, between the header and footer.
    static func sections(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        return Array(lines.dropFirst().dropLast().filter { !$0.hasPrefix(" ") })
    }

    @Test func pagesAreWhatTheGeneratorWritesNow() throws {
        let dir = TempDir()
        let run = try runTool(Paths.packageRoot + "/scripts/generate-man", ["--bin-dir", Paths.binDir, "--out", dir.path])
        try #require(run.status == 0, "scripts/generate-man failed: \(run.stderr)")
        for page in Self.pages {
            let fresh = try String(contentsOfFile: dir.file(page), encoding: .utf8)
            let committed = try String(contentsOfFile: Paths.packageRoot + "/man/" + page, encoding: .utf8)
            #expect(fresh == committed, "man/\(page) is stale: run scripts/generate-man and commit it")
        }
    }

    @Test(arguments: ["gestured.1", "gesturectl.1"])
    func commandPageRendersWithItsSections(_ page: String) throws {
        let result = try Self.render(page)
        #expect(result.status == 0)
        #expect(result.stderr == "", "man/groff warned about man/\(page): \(result.stderr)")
        #expect(Self.sections(result.stdout) == ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS",
                                                  "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"])
        let name = String(page.dropLast(2))
        let help = try runBinary(name, ["--help"])
        // Every subcommand `--help` lists has its own subsection.
        let subcommands = help.stdout.components(separatedBy: "SUBCOMMANDS:").last!
            .split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 != "See" }
        #expect(!subcommands.isEmpty)
        for sub in subcommands {
            #expect(result.stdout.contains("\n   \(name) \(sub)\n"), "man/\(page) has no subsection for \(sub)")
        }
        #expect(result.stdout.contains("--version"))
    }

    @Test func configurationPageHasEveryReferenceSection() throws {
        let result = try Self.render("gestured.yaml.5")
        #expect(result.status == 0)
        #expect(result.stderr == "", "man/groff warned about man/gestured.yaml.5: \(result.stderr)")
        let reference = try String(contentsOfFile: Paths.packageRoot + "/docs/configuration.md", encoding: .utf8)
        let headings = reference.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { $0.dropFirst(3).uppercased() }
        #expect(headings.count >= 8)
        #expect(Self.sections(result.stdout) == ["NAME", "SYNOPSIS", "DESCRIPTION"] + headings + ["FILES", "SEE ALSO"])
        // A key from the deepest table of the reference, as a reader finds it.
        #expect(result.stdout.contains("max-interval"))
    }
}

/// gestured.yaml(5) shows every key of docs/configuration.md's reference tables with its type and
/// its real default, as written in the doc: a cell that lists alternatives (`0` \| `90`) stays one
/// cell, and the doc's comments for its tests (`<!-- check-config: … -->`) are not shown.
@Suite struct ConfigurationManPageTests {
    struct Row: CustomStringConvertible {
        var line: Int
        var shown: String
        var description: String { "docs/configuration.md:\(line): \(shown)" }
    }

    /// A pipe-table row's cells, split at the pipes that are not escaped.
    static func cells(_ row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for c in row.trimmingCharacters(in: .whitespaces).dropFirst() {
            if escaped { current.append(c == "|" ? "|" : "\\\(c)"); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "|" { cells.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue }
            current.append(c)
        }
        return cells
    }

    /// Markdown inline markup as the page shows it: no backticks, links as their text, no emphasis.
    static func plain(_ text: String) -> String {
        var text = text.replacingOccurrences(of: #"\[([^\]]*)\]\([^)\s]*\)"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: "`", with: "")
        text = text.replacingOccurrences(of: #"\*\*([^*]+)\*\*"#, with: "$1", options: .regularExpression)
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Each reference row as the page should show it: the key, then `type: …; default: …`.
    static func rows() throws -> [Row] {
        let lines = try String(contentsOfFile: Paths.packageRoot + "/docs/configuration.md", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var rows: [Row] = []
        var header: [String]?
        for (i, line) in lines.enumerated() {
            guard line.hasPrefix("|") else { header = nil; continue }
            let cells = Self.cells(line)
            if header == nil {
                header = cells.first == "key" && cells.count >= 3 ? cells : []
                continue
            }
            guard let header, !header.isEmpty, !line.hasPrefix("|---") else { continue }
            let middle = zip(header.dropFirst().dropLast(), cells.dropFirst().dropLast())
                .filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1)" }
            rows.append(Row(line: i + 1, shown: plain(cells[0] + " " + middle.joined(separator: "; "))))
        }
        return rows
    }

    @Test func everyKeyShowsItsTypeAndDefault() throws {
        let result = try ManPageTests.render("gestured.yaml.5")
        #expect(result.status == 0)
        let page = Self.plain(result.stdout)
        let rows = try Self.rows()
        #expect(rows.count >= 80, "the reference tables went missing: \(rows.count) rows")
        for row in rows {
            let shown = page.contains(" " + row.shown + " ")
            #expect(shown, "man gestured.yaml does not show \(row)")
        }
        // The keys whose alternatives were once split into columns, as a reader looks them up.
        for shown in ["rotation type: 0 | 90 | 180 | 270; default: 0",
                      "style type: automatic | discrete | continuous; default: automatic",
                      "edges type: list of left | right | top | bottom, or all; default: [left]",
                      "axis type: x | y; default: the dominant axis"] {
            let found = page.contains(shown)
            #expect(found, "man gestured.yaml does not show '\(shown)'")
        }
        let markers = result.stdout.contains("<!--")
        #expect(!markers, "man gestured.yaml shows the doc's test markers")
    }
}
