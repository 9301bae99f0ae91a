import Testing
@testable import GestureConfig

/// docs/recipes.md: the gestures block loads, and every desktop's bindings load with it.
@Suite struct RecipeDocumentationTests {
    @Test func everyRecipeLoadsWithTheRecipeGestures() throws {
        let blocks = DocumentationTests.yamlBlocks("docs/recipes.md")
        // The gestures, the workspaces with either kind of swipe, then Sway, Hyprland, GNOME, KDE and X11.
        #expect(blocks.count == 7)
        guard let gestures = blocks.first else { return }
        #expect(gestures.contains("gestures:"))
        #expect(parseErrors(gestures, file: "recipes gestures").isEmpty)
        guard blocks.count == 7 else { return }
        let workspaces = try ConfigurationLoader.parse(gestures + "\n" + blocks[1], file: "recipes workspaces")
        #expect(Set(workspaces.bindings.map(\.gesture)) == ["next-workspace", "previous-workspace"])
        #expect(workspaces.bindings.contains { $0.every != nil }, "one steps through a continuous swipe")
        for (index, block) in blocks.dropFirst(2).enumerated() {
            let errors = parseErrors(gestures + "\n" + block, file: "recipe \(index + 1)")
            #expect(errors.isEmpty, "\(errors)\n\(block)")
            let configuration = try ConfigurationLoader.parse(gestures + "\n" + block, file: "recipe \(index + 1)")
            // Each recipe covers workspaces, volume, brightness, zoom, back and forward.
            #expect(Set(configuration.bindings.map(\.gesture))
                == ["next-workspace", "previous-workspace", "volume", "brightness", "zoom", "back", "forward"])
        }
    }
}
