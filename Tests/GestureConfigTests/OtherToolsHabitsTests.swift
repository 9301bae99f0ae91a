import Testing
@testable import GestureConfig

/// Mistakes the habits of other tools lead to (Touchégg puts the action in the gesture, launchers
/// say `exec`, UIKit says `minimumPressDuration`, YAML indentation slips): one error each, saying
/// where the key belongs or what was meant.
@Suite struct OtherToolsHabitsTests {
    @Test func aBindingKeyInsideAGestureSaysItGoesInABinding() {
        for key in ["command", "exec", "keys", "action"] {
            let errors = parseErrors("gestures:\n  - id: g\n    kind: swipe\n    \(key): foo\n")
            let verb = key == "keys" ? "keys" : "command"
            let windowAction = key == "action" ? " (or, for a window rule's gesture, action: close-window ...)" : ""
            #expect(errors.map(\.description) == [
                "config.yaml:4:5: unknown key '\(key)' in gesture 'g': what a gesture does goes in a binding, not in the "
                    + "gesture: under the top-level 'bindings', write { gesture: g, \(verb): ... }" + windowAction], "\(key)")
        }
    }

    @Test func aBindingsSettingOnAGestureSaysItBelongsToABinding() {
        let errors = parseErrors("gestures:\n  - { id: g, kind: swipe, cooldown: 300ms }\n")
        #expect(errors.map(\.message) == ["unknown key 'cooldown' in gesture 'g': 'cooldown' belongs to a binding, not to "
                                          + "a gesture: bindings: [{ gesture: g, cooldown: ..., command: ... }]"])
    }

    @Test func bindingsNestedUnderAGestureSaysItIsATopLevelSection() {
        let errors = parseErrors("gestures:\n  - id: g\n    kind: tap\n    bindings:\n      - command: x\n")
        #expect(errors.map(\.description) == [
            "config.yaml:4:5: unknown key 'bindings' in gesture 'g': 'bindings' is a section of its own, at the top "
                + "level of the file (not indented), and each of its entries names its gesture: "
                + "bindings: [{ gesture: g, command: ... }]"])
    }

    @Test func statesOnAGestureSaysItBelongsToABinding() {
        let errors = parseErrors("gestures:\n  - { id: g, kind: tap, states: [recognized] }\n")
        #expect(errors.map(\.message) == [
            "unknown key 'states' in gesture 'g': 'states' belongs to a binding (the states that fire it), not to a "
                + "gesture: bindings: [{ gesture: g, states: [...], command: ... }]"])
    }

    @Test func otherToolsWordsForAParameterSuggestTheKey() {
        for (kind, written, meant) in [("long-press", "duration", "min-duration"), ("long-press", "delay", "min-duration"),
                                       ("tap", "duration", "max-duration"), ("swipe", "direction", "directions"),
                                       ("edge-pan", "edge", "edges"), ("tap", "finger", "fingers")] {
            let errors = parseErrors("gestures:\n  - { id: g, kind: \(kind), \(written): 1 }\n")
            #expect(errors.map(\.message) == ["unknown key '\(written)' in gesture 'g' (did you mean '\(meant)'?)"],
                    "\(kind) \(written)")
        }
    }

    @Test func aKindWrittenAsAPhraseSuggestsTheKeys() {
        for (written, meant) in [("three-finger-swipe", "kind: swipe, fingers: 3"),
                                 ("swipe_left", "kind: swipe, directions: [left]"),
                                 ("bottom-edge", "kind: edge-pan, edges: [bottom]"),
                                 ("3FingerSwipeUp", "kind: swipe, fingers: 3, directions: [up]"),
                                 ("two-finger-tap", "kind: tap, fingers: 2"),
                                 ("left_edge_swipe", "kind: edge-pan, edges: [left]")] {
            let errors = parseErrors("gestures:\n  - { id: g, kind: \(written) }\n")
            #expect(errors.map(\.message) == ["bad value '\(written)' for 'kind' in gesture 'g': expected one of "
                                              + "\(everyKind) (did you mean '\(meant)'?)"])
        }
    }

    @Test func valuesInCapitalsOrAsEdgesSuggestTheValue() {
        #expect(parseErrors("gestures:\n  - { id: g, kind: swipe, directions: LEFT }\n").map(\.message) == [
            "bad value 'LEFT' for 'directions' in gesture 'g': expected one of up, down, left, right, horizontal, "
                + "vertical, all (did you mean 'left'?)"])
        #expect(parseErrors("gestures:\n  - { id: g, kind: edge-pan, edges: bottom-edge }\n").map(\.message) == [
            "bad value 'bottom-edge' for 'edges' in gesture 'g': expected one of left, right, top, bottom, all "
                + "(did you mean 'bottom'?)"])
    }

    @Test func aCommandUnderAnotherNameIsOneErrorWithTheKeyMeant() {
        for word in ["exec", "cmd", "run"] {
            let errors = parseErrors("gestures:\n  - { id: g, kind: tap }\nbindings:\n  - { gesture: g, \(word): foo }\n")
            #expect(errors.map(\.description) == ["config.yaml:4:19: unknown key '\(word)' in binding 1 (did you mean 'command'?)"])
        }
        // Touchégg's `action` is gestured's key for acting on the window: a command there says where it goes.
        let action = parseErrors("gestures:\n  - { id: g, kind: tap }\nbindings:\n  - { gesture: g, action: foo }\n")
        #expect(action.map(\.description) == ["config.yaml:4:27: bad value 'foo' for 'action' in binding 1: expected one of "
            + "close-window, maximize, minimize, fullscreen, move-to-workspace N (N a workspace number from 1); a shell command goes in 'command'"])
        let keys = parseErrors("gestures:\n  - { id: g, kind: tap }\nbindings:\n  - { gesture: g, shortcut: [leftctrl, c] }\n")
        #expect(keys.map(\.message) == ["unknown key 'shortcut' in binding 1 (did you mean 'keys'?)"])
    }

    @Test func indentationSlipsSayWhichLineToCheck() {
        let cases: [(String, String)] = [
            ("gestures:\n  - id: g\n     kind: tap\n",
             "config.yaml:3:10: YAML syntax error: mapping values are not allowed in this context; check the "
                + "indentation of line 3 (5 spaces)"),
            ("gestures:\n  - id: g\n    kind: tap\n  - id: h\n   kind: tap\n",
             "config.yaml:5:4: YAML syntax error: did not find expected '-' indicator (while parsing a block "
                + "collection at line 2, column 3); check the indentation of line 5 (3 spaces)"),
            ("bindings:\n- gesture: g\n  command: x\n - gesture: h\n",
             "config.yaml:4:2: YAML syntax error: did not find expected key (while parsing a block mapping at line 1, "
                + "column 1); check the indentation of line 4 (1 space)"),
        ]
        for (yaml, start) in cases {
            let errors = parseErrors(yaml).map(\.description)
            #expect(errors.count == 1)
            #expect(errors.first?.hasPrefix(start + ": the keys of one mapping start in the same column") == true, "\(errors)")
        }
    }

    @Test func anAttachWithRegionInsteadOfRegionsSaysSo() {
        guard case .failure(let e) = RequestReader.attachment(
            #"{"request":"attach","region":{"id":"b","frame":[0,0,10,10]},"gestures":[{"id":"t","kind":"tap"}]}"#,
            parent: "screen") else {
            Issue.record("an attach without 'regions' was accepted")
            return
        }
        #expect(e.errors == ["request: missing key 'regions' (a region mapping with 'id', like the config's); found "
                             + "'region': the region goes under 'regions' (\"regions\": {\"id\": ..., \"frame\": [...]})"])
    }
}
