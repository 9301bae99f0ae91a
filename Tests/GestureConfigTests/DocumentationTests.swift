#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import GestureConfig

/// Every ```yaml block of README.md and docs/*.md goes through what `gestured check-config` checks
/// (the schema, then StartupCheck) on a machine set up as the README says. A block that is not a
/// whole config says so on the line before it, in an HTML comment the test reads:
///
/// - `<!-- check-config: bindings for the example gestures ... -->`: bindings; checked with
///   `DocumentationTests.gestures` added.
/// - `<!-- check-config: bindings for the gestures of the first block -->`: checked after the
///   page's first block (docs/recipes.md).
/// - `<!-- check-config: not a config: WHY -->`: not checked, for the reason given.
@Suite struct DocumentationTests {
    struct Block {
        var document: String
        var line: Int
        var text: String
        /// The `check-config:` comment on the line before the block, if any.
        var marker: String?
    }

    /// The ```yaml blocks of a document of the repository, with their markers.
    static func blocks(_ document: String) -> [Block] {
        guard let text = readText(Repository.root + "/" + document) else { return [] }
        var blocks: [Block] = []
        var current: (line: Int, lines: [Substring], marker: String?)?
        var previous: Substring = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil, line == "```yaml" {
                var marker: String?
                let trimmed = previous.trimmingCharacters(in: " ")
                if trimmed.hasPrefix("<!-- check-config:"), trimmed.hasSuffix("-->") {
                    marker = String(trimmed.dropFirst("<!-- check-config:".count).dropLast(3)).trimmingCharacters(in: " ")
                }
                current = (index + 1, [], marker)
            } else if let open = current, line == "```" {
                blocks.append(Block(document: document, line: open.line, text: open.lines.joined(separator: "\n"),
                                    marker: open.marker))
                current = nil
            } else {
                current?.lines.append(line)
            }
            previous = line
        }
        return blocks
    }

    /// The texts of the ```yaml blocks (RecipeDocumentationTests).
    static func yamlBlocks(_ document: String = "docs/configuration.md") -> [String] {
        blocks(document).map(\.text)
    }

    /// README.md and every docs/*.md.
    static func documents() -> [String] {
        var names: [String] = []
        if let dir = opendir(Repository.root + "/docs") {
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".md") { names.append("docs/" + name) }
            }
        }
        return ["README.md"] + names.sorted()
    }

    /// Gestures the binding examples refer to.
    static let gestures = """

        gestures:
          - { id: swipe-3, kind: swipe, fingers: 3 }
          - { id: pinch, kind: pinch }
          - { id: long-press, kind: long-press }
        """

    /// The machine the README sets up: Debian's `input` group and the `gestured` group the package
    /// creates; the daemon as systemd/gestured.service runs it (a dynamic user, its supplementary
    /// groups and runtime directory read from the unit file).
    static func readmeMachine() -> HostFacts {
        let unit = readText(Repository.root + "/systemd/gestured.service") ?? ""
        func setting(_ key: String) -> [String] {
            unit.split(separator: "\n").filter { $0.hasPrefix(key + "=") }
                .flatMap { $0.dropFirst(key.count + 1).split(separator: " ").map(String.init) }
        }
        let groupIDs = ["input": UInt32(104), "gestured": 990]
        let dynamic = setting("DynamicUser") == ["yes"]
        let uid: UInt32 = dynamic ? 61_184 : 0
        let groups = Set([uid] + setting("SupplementaryGroups").compactMap { groupIDs[$0] })
        // The socket's directory: the service's RuntimeDirectory, or, when the service gets its socket
        // from gestured.socket, the directory systemd makes for that socket (the daemon makes nothing).
        var runtime = setting("RuntimeDirectory").map { "/run/" + $0 }
        if setting("Requires").contains("gestured.socket") {
            let socketUnit = readText(Repository.root + "/systemd/gestured.socket") ?? ""
            for line in socketUnit.split(separator: "\n") where line.hasPrefix("ListenStream=") {
                let path = line.dropFirst("ListenStream=".count)
                runtime.append(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
            }
        }
        let directories = Set(["/", "/run", "/tmp", "/etc"] + runtime)
        let writable = Set(runtime + (uid == 0 ? ["/run", "/tmp"] : ["/tmp"]))
        return HostFacts(uid: uid, groups: groups, groupID: { groupIDs[$0] }, userID: { $0 == "root" ? 0 : nil },
                         isDirectory: { directories.contains($0) }, canCreateEntries: { writable.contains($0) })
    }

    /// What check-config says about a config: its errors, then what would stop the daemon starting.
    static func checkConfig(_ yaml: String, file: String, host: HostFacts) -> [String] {
        do {
            let configuration = try ConfigurationLoader.parse(yaml, file: file)
            return StartupCheck.problems(configuration, socketPath: configuration.socket.path ?? "/run/gestured/gestured.sock",
                                         socketPathFromCommandLine: false, host: host).map(\.description)
        } catch {
            return error.errors.map(\.description)
        }
    }

    /// The config a block stands for, or why it is not one; nil for a marker the test does not know.
    static func config(of block: Block, firstOfPage: Block?) -> (yaml: String?, why: String)? {
        guard let marker = block.marker else { return (block.text, "a whole config") }
        if marker.hasPrefix("bindings for the example gestures") { return (block.text + gestures, marker) }
        if marker == "bindings for the gestures of the first block", let first = firstOfPage {
            return (first.text + "\n" + block.text, marker)
        }
        if marker.hasPrefix("not a config:"), marker.count > "not a config:".count + 3 { return (nil, marker) }
        return nil
    }

    @Test func everyYAMLBlockOfTheREADMEAndDocsPassesCheckConfig() {
        let host = Self.readmeMachine()
        var checked = 0
        for document in Self.documents() {
            let blocks = Self.blocks(document)
            for block in blocks {
                let place = "\(block.document) (block at line \(block.line))"
                guard let config = Self.config(of: block, firstOfPage: blocks.first) else {
                    Issue.record("\(place): unknown marker '\(block.marker ?? "")' (DocumentationTests lists the known ones)")
                    continue
                }
                guard let yaml = config.yaml else { continue }
                let problems = Self.checkConfig(yaml, file: place, host: host)
                #expect(problems.isEmpty, "\(place) (\(config.why)):\n\(problems.joined(separator: "\n"))\n\(block.text)")
                checked += 1
            }
        }
        // The README's example, seven reference examples, the six recipe blocks at least.
        #expect(checked >= 14)
    }

    @Test func theREADMEExampleIsAWholeConfigWithASocketGroup() {
        let blocks = Self.blocks("README.md")
        #expect(blocks.count == 1)
        #expect(blocks.allSatisfy { $0.marker == nil && $0.text.contains("group: gestured") })
    }

    @Test func aMachineWithoutTheGroupIsToldHowToCreateIt() throws {
        let readme = try #require(Self.blocks("README.md").first)
        var bare = Self.readmeMachine()
        bare.groupID = { $0 == "input" ? 104 : nil }
        let problems = Self.checkConfig(readme.text, file: "README.md", host: bare)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("socket group 'gestured' does not exist on this machine: create it with "
                                         + "`sudo groupadd --system gestured`") == true, "\(problems)")
    }

    @Test func referenceHasExamples() {
        #expect(Self.yamlBlocks().count >= 7)
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var slice = self
        while slice.first == set { slice.removeFirst() }
        while slice.last == set { slice.removeLast() }
        return slice
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String { String(Substring(self).trimmingCharacters(in: set)) }
}
