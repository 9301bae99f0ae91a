import Testing
@testable import GestureConfig

/// The examples in docs/configuration.md must load.
@Suite struct DocumentationTests {
    /// The ```yaml blocks of the reference (or of another document of the repository).
    static func yamlBlocks(_ document: String = "docs/configuration.md") -> [String] {
        guard let text = readText(Repository.root + "/" + document) else { return [] }
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```yaml" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Gestures the binding examples refer to.
    static let gestures = """

        gestures:
          - { id: swipe-3, kind: swipe, fingers: 3 }
          - { id: pinch, kind: pinch }
          - { id: long-press, kind: long-press }
        """

    @Test func readmeExampleLoadsAsWritten() {
        let blocks = Self.yamlBlocks("README.md")
        #expect(blocks.count == 1)
        for block in blocks {
            #expect(parseErrors(block, file: "README.md").isEmpty)
        }
    }

    @Test func referenceHasExamples() {
        #expect(Self.yamlBlocks().count >= 7)
    }

    @Test func everyExampleLoads() {
        for (index, block) in Self.yamlBlocks().enumerated() {
            let yaml = block.contains("gestures:") ? block : block + Self.gestures
            let errors = parseErrors(yaml, file: "example \(index + 1)")
            #expect(errors.isEmpty, "\(errors)\n\(block)")
        }
    }
}
