import Testing
import GestureCore
@testable import GestureConfig

/// One mistake gives one error, and that error names what was probably meant.
@Suite struct OneMistakeOneErrorTests {
    // MARK: Gesture kinds

    /// Every word the table knows, as a kind, with a stepped binding and states: one error, the
    /// kind meant, and nothing about the binding (the gesture is not taken for a tap).
    @Test func everyKindWordSuggestsItsKindAndNothingCascades() {
        for (word, kind) in ConfigWords.kinds {
            for written in [word, word.uppercased()] {
                let errors = parseErrors("""
                    gestures:
                      - { id: g, kind: \(written), directions: all, min-fingers: 2 }
                    bindings:
                      - { gesture: g, every: 10%, command: x }
                      - { gesture: g, states: [began, recognized], command: x }
                    """)
                #expect(errors.count == 1, "\(written): \(errors)")
                #expect(errors.first?.message.hasSuffix("(did you mean '\(kind)'?)") == true, "\(written): \(errors)")
            }
        }
    }

    @Test func kindsSpelledWithUnderscoresOrTyposFindTheirKind() {
        for (written, kind) in [("long_press", "long-press"), ("Edge_Pan", "edge-pan"), ("LongPress", "long-press"),
                                ("rotaton", "rotation"), ("pinc", "pinch"), ("zooom", "pinch"), ("swip", "swipe")] {
            let errors = parseErrors("gestures:\n  - { id: g, kind: \(written) }\n")
            #expect(errors.map(\.message) == ["bad value '\(written)' for 'kind' in gesture 'g': expected one of "
                                              + "\(everyKind) (did you mean '\(kind)'?)"])
        }
    }

    @Test func everyKindWordTargetIsAKind() {
        for kind in Set(ConfigWords.kinds.values) { #expect(RecognizerKind(rawValue: kind) != nil, "\(kind)") }
    }

    // MARK: Keys of another kind

    @Test func fingersOnATwoFingerKindSaysItIsTwoFingers() {
        for kind in ["pinch", "rotation"] {
            for key in ["fingers", "min-fingers", "max-fingers"] {
                let errors = parseErrors("gestures:\n  - { id: g, kind: \(kind), \(key): 2 }\n")
                #expect(errors.map(\.message) == ["unknown key '\(key)' in gesture 'g': a \(kind) is always two fingers, "
                                                  + "so it takes no '\(key)'"])
            }
        }
    }

    @Test func aParameterOfAnotherKindNamesTheKindsThatTakeIt() {
        let errors = parseErrors("gestures:\n  - { id: g, kind: pan, directions: left }\n")
        #expect(errors.map(\.message) == ["unknown key 'directions' in gesture 'g': 'directions' is a parameter of swipe "
                                          + "gestures, not of a pan: this kind takes fingers, min-fingers, max-fingers, "
                                          + "threshold, settle-time"])
    }

    // MARK: Bindings to a gesture that is not there

    @Test func aBindingToAnUndefinedGestureNamesTheBindingAndItsLine() {
        let yaml = """
            gestures:
              - { id: swipe-left, kind: swipe, directions: left }
              - { id: pinch, kind: pinch }
            bindings:
              - { gesture: pinch, every: 10%, command: x }

              - command: x
                gesture: swipe_left
              - { gesture: volume, command: x }
            """
        #expect(parseErrors(yaml).map(\.description) == [
            "config.yaml:8:14: unknown gesture 'swipe_left' in 'gesture' of binding 2 (line 7) (did you mean 'swipe-left'?)",
            "config.yaml:9:16: unknown gesture 'volume' in 'gesture' of binding 3 (line 9): the gestures defined are "
                + "swipe-left, pinch",
        ])
        #expect(parseErrors("bindings:\n  - { gesture: volume, command: x }\n").map(\.message)
            == ["unknown gesture 'volume' in 'gesture' of binding 1 (line 2): no gesture is defined; add it under 'gestures'"])
    }

    // MARK: States, directions, edges

    @Test func everyStateWordSuggestsItsState() {
        for (word, state) in ConfigWords.states {
            let errors = parseErrors("gestures:\n  - { id: g, kind: pan }\nbindings:\n  - { gesture: g, states: [\(word)], command: x }\n")
            #expect(errors.count == 1, "\(word): \(errors)")
            #expect(errors.first?.message.hasSuffix("(did you mean '\(state)'?)") == true, "\(word): \(errors)")
        }
    }

    @Test func everyDirectionWordSuggestsItsDirectionAndTheListHasTheGroups() {
        for (word, meant) in ConfigWords.directions {
            let errors = parseErrors("gestures:\n  - { id: g, kind: swipe, directions: [up, \"\(word)\"] }\n")
            #expect(errors.map(\.message) == ["bad value '\(word)' for 'directions' in gesture 'g': expected one of "
                                              + "up, down, left, right, horizontal, vertical, all (did you mean '\(meant)'?)"])
        }
        for (word, meant) in ConfigWords.edges where Edge(rawValue: word) == nil {
            let errors = parseErrors("gestures:\n  - { id: g, kind: edge-pan, edges: \"\(word)\" }\n")
            #expect(errors.map(\.message) == ["bad value '\(word)' for 'edges' in gesture 'g': expected one of "
                                              + "left, right, top, bottom, all (did you mean '\(meant)'?)"])
        }
    }

    @Test func groupsAreAcceptedInsideAList() throws {
        let configuration = try ConfigurationLoader.parse("gestures:\n  - { id: g, kind: swipe, directions: [vertical, left] }\n",
                                                          file: "g.yaml")
        #expect(configuration.engine.recognizers.first?.parameters.directions == [.up, .down, .left])
    }

    // MARK: Bare numbers

    /// Every length, duration and angle of every kind, and of bindings: a bare number is refused
    /// with the unit it probably meant; a bare 0 is the same in every unit and is accepted.
    @Test func aBareNumberIsRefusedWithTheUnitMeant() {
        let units: [String: String] = [
            "movement": "mm", "max-distance": "mm", "threshold": "mm", "edge-zone": "mm", "min-distance": "mm",
            "min-span": "mm", "max-interval": "ms", "max-duration": "ms", "settle-time": "ms", "min-duration": "ms",
            "angle-tolerance": "deg",
        ]
        var checked = 0
        for kind in RecognizerKind.allCases {
            for key in SchemaReader.parameterKeys(kind) {
                guard var unit = units[key] else { continue }
                if kind == .rotation && key == "threshold" { unit = "deg" }
                let errors = parseErrors("gestures:\n  - { id: g, kind: \(kind.rawValue), \(key): 40 }\n")
                #expect(errors.map(\.message) == ["'\(key)' in gesture 'g' needs a unit, got a bare 40: write 40\(unit) "
                    + (unit == "mm" ? "(lengths take mm, cm or in)" : unit == "ms" ? "(durations take ms or s)"
                        : "(angles take deg, ° or rad)")], "\(kind) \(key)")
                if key != "max-interval" && key != "max-duration" && key != "edge-zone" {
                    #expect(parseErrors("gestures:\n  - { id: g, kind: \(kind.rawValue), \(key): 0 }\n").isEmpty, "\(kind) \(key)")
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
        #expect(parseErrors("gestures:\n  - { id: g, kind: swipe, max-duration: 0.5 }\n").map(\.message)
            == ["'max-duration' in gesture 'g' needs a unit, got a bare 0.5: write 0.5s (500ms); durations take ms or s"])
        #expect(parseErrors("surfaces:\n  - { match: {}, physical-size: [344, 194mm] }\n").first?.message
            .contains("needs a unit, got a bare 344: write 344mm") == true)
    }

    // MARK: Key names

    /// The names of other tools that the issue reports, and their kin.
    @Test(arguments: [
        ("super", "leftmeta"), ("Super_L", "leftmeta"), ("Super_R", "rightmeta"), ("ctrl", "leftctrl"),
        ("Control_L", "leftctrl"), ("Control_R", "rightctrl"), ("alt", "leftalt"), ("Alt_R", "rightalt"),
        ("shift", "leftshift"), ("Shift_R", "rightshift"), ("leftsuper", "leftmeta"), ("left_super", "leftmeta"),
        ("rsuper", "rightmeta"), ("lctrl", "leftctrl"), ("Meta_L", "leftmeta"), ("win", "leftmeta"),
        ("XF86AudioRaiseVolume", "volumeup"), ("XF86AudioLowerVolume", "volumedown"), ("XF86AudioMute", "mute"),
        ("XF86MonBrightnessUp", "brightnessup"), ("XF86AudioPlay", "playpause"), ("XF86AudioNext", "nextsong"),
        ("XF86Back", "back"), ("XF86Forward", "forward"), ("plus", "kpplus"), ("Return", "enter"),
        ("Escape", "esc"), ("Page_Up", "pageup"), ("Page_Down", "pagedown"), ("Prior", "pageup"), ("Next", nil), ("PgDn", "pagedown"),
        ("Caps_Lock", "capslock"), ("BackSpace", nil), ("Num-Lock", "numlock"), ("KP_Add", "kpplus"), ("KP_Subtract", "kpminus"),
        ("bracketleft", "leftbrace"), ("period", "dot"), ("Print", nil), ("+", "kpplus"), ("altgr", "rightalt"),
        ("leftsupr", "leftmeta"), ("volumeupp", "volumeup"), ("BTN-LEFT", "btn_left"), ("Touchpad_Toggle", nil), ("TouchpadToggle", "touchpad_toggle"),
    ] as [(String, String?)])
    func otherToolsKeyNamesSuggestTheKernelName(written: String, meant: String?) {
        if KeyNames.code(for: written) != nil {
            #expect(meant == nil, "\(written) is a kernel name")
            return
        }
        #expect(KeyNameHints.hint(for: written)?.name == meant, "\(written)")
    }

    /// The class, not the examples: every modifier word, with every way of naming its side.
    @Test func everyModifierSpellingFindsItsSide() {
        for (word, base) in KeyNameHints.modifiers {
            let capital = word.prefix(1).uppercased() + word.dropFirst()
            let spellings: [(String, String)] = [
                (word, "left"), (word.uppercased(), "left"), (capital + "_L", "left"), (capital + "_R", "right"),
                (word + "-r", "right"), ("left" + word, "left"), ("Right_" + capital, "right"), ("l" + word, "left"),
                ("R" + capital, "right"), ("KEY_" + word.uppercased(), "left"),
            ]
            for (written, side) in spellings where KeyNames.code(for: written) == nil {
                #expect(KeyNameHints.hint(for: written)?.name == side + base, "\(written)")
            }
        }
    }

    /// Every kernel name written as an X keysym would be (XF86 prefix, capitals, `-` for `_`) is found.
    @Test func everyKernelNameSpelledTheXWayIsFound() {
        for name in KeyNames.all {
            let written = "XF86" + name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }
                .joined(separator: "-")
            guard KeyNames.code(for: written) == nil else { continue }
            let hint = KeyNameHints.hint(for: written)
            #expect(hint.flatMap { KeyNames.code(for: $0.name) } == KeyNames.code(for: name), "\(written) → \(String(describing: hint))")
        }
    }

    /// Every suggestion the tables can make is a key the config accepts.
    @Test func everyTableTargetIsAKernelName() {
        let targets = KeyNameHints.aliases.values.map(\.name) + KeyNameHints.symbols.values.map(\.name)
            + KeyNameHints.modifiers.values.flatMap { ["left" + $0, "right" + $0] }
        for target in targets { #expect(KeyNames.code(for: target) != nil, "\(target)") }
    }

    @Test func keyErrorsInAConfig() {
        let errors = parseErrors("""
            gestures:
              - { id: g, kind: swipe }
            bindings:
              - { gesture: g, keys: [super, plus] }
              - { gesture: g, keys: "ctrl+alt+Right" }
              - { gesture: g, keys: "super+Page_Up" }
            """)
        #expect(errors.map(\.message) == [
            "unknown key 'super' in 'keys' of binding 1 (did you mean 'leftmeta'?)",
            "unknown key 'plus' in 'keys' of binding 1 (did you mean 'kpplus'? the main keyboard's + is [leftshift, equal])",
            "unknown key 'ctrl+alt+Right' in 'keys' of binding 2: write a combination as a list, like [leftctrl, leftalt, right]",
            "unknown key 'super+Page_Up' in 'keys' of binding 3: write a combination as a list, like [leftmeta, pageup]",
        ])
    }
}
