import Testing
import GestureCore
@testable import GestureConfig

/// `keys`, `every`, `axis`, `cooldown` in bindings: the forms, the model, the errors and their positions.
@Suite struct ActionBindingConfigTests {
    static let gestures = """
        gestures:
          - { id: swipe-3, kind: swipe, fingers: 3 }
          - { id: scroll, kind: pan, min-fingers: 2, max-fingers: 2 }
          - { id: edge, kind: edge-pan }
          - { id: zoom, kind: pinch }
          - { id: turn, kind: rotation }
          - { id: hold, kind: long-press }

        """

    static func code(_ name: String) -> UInt16 { KeyNames.code(for: name)! }

    static func bindings(_ yaml: String) throws -> [Binding] {
        try ConfigurationLoader.parse(gestures + yaml, file: "config.yaml").bindings
    }

    @Test func keyNamesAreTheKernelsWithoutPrefixAnyCase() {
        #expect(KeyNames.code(for: "leftctrl") == 29)
        #expect(KeyNames.code(for: "LeftCtrl") == 29)
        #expect(KeyNames.code(for: "KEY_LEFTCTRL") == 29)
        #expect(KeyNames.code(for: "volumeup") == 115)
        #expect(KeyNames.code(for: "1") == 2)
        // `right` is the arrow key; the mouse button keeps its prefix.
        #expect(KeyNames.code(for: "right") == 106)
        #expect(KeyNames.code(for: "btn_right") == 0x111)
        // Aliases the header defines resolve to their code; the first name is canonical.
        #expect(KeyNames.code(for: "screenlock") == KeyNames.code(for: "coffee"))
        #expect(KeyNames.name(of: 152) == "coffee")
        #expect(KeyNames.code(for: "reserved") == nil)
        #expect(KeyNames.code(for: "max") == nil)
    }

    @Test func oneNameAFlatListAndAListOfCombinations() throws {
        let parsed = try Self.bindings("""
            bindings:
              - { gesture: swipe-3, keys: volumeup }
              - { gesture: swipe-3, keys: [leftctrl, leftalt, right] }
              - { gesture: swipe-3, keys: [[leftmeta, pageup], enter] }
            """)
        #expect(parsed.map(\.keys) == [
            [KeyCombo([Self.code("volumeup")])],
            [KeyCombo([29, 56, 106])],
            [KeyCombo([Self.code("leftmeta"), Self.code("pageup")]), KeyCombo([Self.code("enter")])],
        ])
        #expect(parsed.allSatisfy { $0.command == nil })
    }

    @Test func stepsTakeTheUnitOfTheirGesturesProgress() throws {
        let parsed = try Self.bindings("""
            bindings:
              - { gesture: scroll, every: 8mm, axis: y, command: 'echo "$GESTURE_STEP"' }
              - { gesture: edge, every: 1cm, command: 'true' }
              - { gesture: scroll, every: 0.6cm, command: 'true' }
              - { gesture: zoom, every: 10%, keys-increase: [leftctrl, kpplus], keys-decrease: [leftctrl, kpminus] }
              - { gesture: turn, every: 15deg, keys: f5, cooldown: 300ms }
            """)
        #expect(parsed[0].every == .distance(mm: 8, axis: .y))
        #expect(parsed[1].every == .distance(mm: 10, axis: nil))
        #expect(parsed[2].every == .distance(mm: 6, axis: nil))
        #expect(parsed[3].every == .scale(ratio: 0.1))
        #expect(parsed[3].keysIncrease == [KeyCombo([29, Self.code("kpplus")])])
        #expect(parsed[3].keysDecrease == [KeyCombo([29, Self.code("kpminus")])])
        #expect(parsed[4].every == .angle(degrees: 15))
        #expect(parsed[4].cooldown == 300)
        #expect(parsed[0].cooldown == 0)
    }

    @Test func theVirtualKeyboardHasExactlyTheKeysTheBindingsUse() throws {
        let configuration = try ConfigurationLoader.parse(Self.gestures + """
            bindings:
              - { gesture: swipe-3, keys: [[leftctrl, leftalt, right], [enter]] }
              - { gesture: zoom, every: 10%, keys-increase: [leftctrl, kpplus], keys-decrease: [leftctrl, kpminus] }
              - { gesture: swipe-3, command: 'true' }
            """, file: "config.yaml")
        #expect(configuration.virtualKeys == Set(["leftctrl", "leftalt", "right", "enter", "kpplus", "kpminus"].map(Self.code)))
        #expect(try ConfigurationLoader.parse(Self.gestures, file: "c").virtualKeys.isEmpty)
    }

    static let gestureLines = gestures.split(separator: "\n", omittingEmptySubsequences: false).count - 1

    @Test(arguments: [
        ("  - { gesture: swipe-3, keys: [leftctrl, leftlat] }", 1, 42,
         "unknown key 'leftlat' in 'keys' of binding 1 (did you mean 'leftalt'?)"),
        ("  - { gesture: swipe-3, keys: [leftctrl+t] }", 1, 32,
         "unknown key 'leftctrl+t' in 'keys' of binding 1: write a combination as a list, like [leftctrl, t]"),
        ("  - { gesture: swipe-3, keys: [leftctrl, leftctrl] }", 1, 42,
         "key 'leftctrl' twice in one combination in 'keys' of binding 1"),
        ("  - { gesture: swipe-3, keys: [] }", 1, 31, "'keys' of binding 1 must not be empty"),
        ("  - { gesture: swipe-3, keys: [[a], []] }", 1, 37, "an empty combination in 'keys' of binding 1"),
        ("  - { gesture: swipe-3 }", 1, 5, "missing key 'command' or 'keys' in binding 1"),
        ("  - { gesture: swipe-3, every: 10%, command: x }", 1, 32,
         "steps through a continuous swipe's translation ('swipe-3'): write a length like 20mm"),
        ("  - { gesture: hold, every: 8mm, command: x }", 1, 29,
         "a long-press gesture ('hold') has no continuous progress to step through"),
        ("  - { gesture: zoom, every: 8mm, command: x }", 1, 29,
         "'every' in binding 1 steps through a pinch's scale ('zoom'): write a percentage like 10%"),
        ("  - { gesture: zoom, every: 10, command: x }", 1, 29,
         "'every' in binding 1 needs a unit, got a bare 10: write 10% (a pinch ('zoom') steps through its scale)"),
        ("  - { gesture: scroll, every: 6, command: x }", 1, 31, "needs a unit, got a bare 6: write 6mm"),
        ("  - { gesture: turn, every: 15, command: x }", 1, 29, "needs a unit, got a bare 15: write 15deg"),
        ("  - { gesture: swipe-3, keys: f1, cooldown: 300 }", 1, 45,
         "'cooldown' in binding 1 needs a unit, got a bare 300: write 300ms"),
        ("  - { gesture: swipe-3, keys: f1, timeout: 2 }", 1, 44,
         "'timeout' in binding 1 needs a unit, got a bare 2: write 2s (2000ms)"),
        ("  - { gesture: scroll, every: 15deg, command: x }", 1, 31, "write a length like 8mm"),
        ("  - { gesture: turn, every: 10%, command: x }", 1, 29, "write an angle like 15deg"),
        ("  - { gesture: scroll, every: 0mm, command: x }", 1, 31, "'every' in binding 1 must be more than zero"),
        ("  - { gesture: scroll, every: fast, command: x }", 1, 31,
         "expected a step like 8mm (pan), 10% (pinch) or 15deg (rotation) for 'every' in binding 1, got 'fast'"),
        ("  - { gesture: turn, every: 15deg, axis: x, command: x }", 1, 42,
         "'axis' in binding 1 applies to pan and edge-pan steps"),
        ("  - { gesture: scroll, every: 8mm, axis: z, command: x }", 1, 42, "bad value 'z' for 'axis' in binding 1: expected x or y"),
        ("  - { gesture: scroll, axis: x, command: x }", 1, 24, "'axis' in binding 1 needs 'every'"),
        ("  - { gesture: scroll, keys-increase: [f1], command: x }", 1, 24, "'keys-increase' in binding 1 needs 'every'"),
        ("  - { gesture: scroll, every: 8mm, states: [changed], command: x }", 1, 36,
         "'states' does not apply to a stepped binding"),
        ("  - { gesture: scroll, every: 8mm, keys: [f1], keys-decrease: [f2] }", 1, 48,
         "'keys' and 'keys-decrease' cannot be combined in binding 1"),
        ("  - { gesture: swipe-3, keys: f1, cooldown: -1s }", 1, 45, "'cooldown' in binding 1 must be zero or more"),
    ])
    func errorsArePlaced(line: String, lineOffset: Int, column: Int, fragment: String) {
        let errors = parseErrors(Self.gestures + "bindings:\n" + line + "\n")
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.line == Self.gestureLines + 1 + lineOffset, "\(errors)")
        #expect(errors.first?.column == column, "\(errors)")
        #expect(errors.first?.message.contains(fragment) == true, "\(errors)")
    }
}
