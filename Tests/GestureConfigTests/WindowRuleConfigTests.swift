import Testing
import GestureCore
@testable import GestureConfig

/// `windows:` (window rules), `surfaces[].output` and `desktop:` (docs/desktop.md): read into the
/// engine's rules; each mistake one error at its file:line:column, with did-you-mean.
@Suite struct WindowRuleConfigTests {
    static let cases: [BrokenCase] = [
        BrokenCase(name: "misspelt match key", yaml: """
            windows:
              - id: browser
                match: { ap: firefox }
            """, line: 3, column: 14, fragment: "unknown key 'ap' in 'match' of window rule 'browser' (did you mean 'app'?)"),
        BrokenCase(name: "misspelt rule key", yaml: """
            windows:
              - id: browser
                gesture: []
            """, line: 3, column: 5, fragment: "unknown key 'gesture' in windows[0] (did you mean 'gestures'?)"),
        BrokenCase(name: "disable names an unknown gesture", yaml: """
            gestures:
              - id: edge-left
                kind: edge-pan
            windows:
              - id: draw
                disable: [edge-lef]
            """, line: 6, column: 15,
            fragment: "unknown gesture 'edge-lef' in 'disable' of window rule 'draw' (did you mean 'edge-left'?)"),
        BrokenCase(name: "a rule's gesture with a region", yaml: """
            windows:
              - id: browser
                gestures:
                  - id: browser-pinch
                    kind: pinch
                    region: screen
            """, line: 6, column: 17, fragment: "gesture 'browser-pinch' of window rule 'browser' sits on every matching window"),
        BrokenCase(name: "gesture id used twice", yaml: """
            gestures:
              - id: pinch
                kind: pinch
            windows:
              - id: browser
                gestures:
                  - id: pinch
                    kind: pinch
            """, line: 7, column: 13, fragment: "duplicate gesture id 'pinch'"),
        BrokenCase(name: "rule id clashes with a region", yaml: """
            regions:
              id: screen
            windows:
              - id: screen
            """, line: 4, column: 9, fragment: "duplicate id 'screen'"),
        BrokenCase(name: "a rule's gesture names another rule's", yaml: """
            windows:
              - id: a
                gestures:
                  - id: a-tap
                    kind: tap
                    require-to-fail: [b-dbl]
              - id: b
                gestures:
                  - id: b-dbl
                    kind: tap
                    taps: 2
            """, line: 6, column: 27, fragment: "a window rule's gesture names gestures of the same rule"),
        BrokenCase(name: "bad touchpad-window", yaml: """
            desktop:
              touchpad-window: pointr
            """, line: 2, column: 20, fragment: "bad value 'pointr' for 'touchpad-window' in 'desktop': expected one of focused, pointer (did you mean 'pointer'?)"),
        BrokenCase(name: "misspelt binding of a rule's gesture", yaml: """
            windows:
              - id: browser
                gestures:
                  - id: browser-back
                    kind: swipe
                    fingers: 3
            bindings:
              - gesture: browser-bak
                keys: [[leftalt, left]]
            """, line: 8, column: 14, fragment: "unknown gesture 'browser-bak' in 'gesture' of binding 1 (line 8) (did you mean 'browser-back'?)"),
    ]

    @Test(arguments: cases)
    func mistakesAreReportedWhereTheyAre(_ broken: BrokenCase) throws {
        let errors = parseErrors(broken.yaml)
        #expect(errors.count == 1, "errors: \(errors)")
        let error = try #require(errors.first)
        #expect(error.line == broken.line, "\(error)")
        #expect(error.column == broken.column, "\(error)")
        #expect(error.message.contains(broken.fragment), "\(error)")
    }

    @Test func rulesAreReadWithTheirGesturesAndClaimsOnlyWhenBound() throws {
        let c = try ConfigurationLoader.parse("""
            version: 1
            devices: { forward: true }
            gestures:
              - id: edge-left
                kind: edge-pan
            windows:
              - id: browser
                match: { app: "firefox*", floating: false }
                disable: [edge-left]
                gestures:
                  - id: browser-pinch
                    kind: pinch
                  - id: browser-back
                    kind: swipe
                    fingers: 3
                    directions: [right]
            desktop: { touchpad-window: pointer }
            surfaces:
              - match: { kind: touchscreen }
                output: eDP-1
            bindings:
              - gesture: browser-back
                keys: [[leftalt, left]]
            """, file: "c.yaml")
        let rule = try #require(c.engine.windowRules.first)
        #expect(rule.id == "browser")
        #expect(rule.match == WindowMatch(app: "firefox*", floating: false))
        #expect(rule.disable == ["edge-left"])
        #expect(rule.gestures.map(\.id) == ["browser-pinch", "browser-back"])
        #expect(rule.gestures.map(\.claimsForwarded) == [false, true])
        #expect(c.engine.touchpadWindow == .pointer)
        #expect(c.surfaces.first?.output == "eDP-1")
        #expect(c.bindings.map(\.gesture) == ["browser-back"])
        #expect(c.engine.gestureIDs == ["edge-left", "browser-pinch", "browser-back"])
    }

    /// "All browsers" is one rule: `app` takes a list of globs, any of which matches.
    @Test func appTakesAListOfGlobs() throws {
        let c = try ConfigurationLoader.parse("""
            version: 1
            windows:
              - id: browsers
                match: { app: [firefox*, "chromium", "org.gnome.Epiphany"] }
                disable: "*"
            """, file: "c.yaml")
        let match = try #require(c.engine.windowRules.first?.match)
        #expect(match.apps == ["firefox*", "chromium", "org.gnome.Epiphany"])
        func window(_ app: String) -> DesktopWindow {
            DesktopWindow(id: "1", app: app, title: "t", output: "O", x: 0, y: 0, width: 10, height: 10, stack: 1)
        }
        #expect(match.matches(window("firefox-esr")) && match.matches(window("chromium")) && match.matches(window("org.gnome.Epiphany")))
        #expect(!match.matches(window("foot")))
    }

    /// `class` (as i3, sway and X11 tools write it) is `app` here, and the error says so.
    @Test func classInAMatchSaysThatAppMatchesTheX11Class() {
        let errors = parseErrors("version: 1\nwindows:\n  - { id: w, match: { class: Firefox }, disable: \"*\" }\n")
        #expect(errors.map(\.message) == ["unknown key 'class' in 'match' of window rule 'w': 'app' matches the Wayland app id "
            + "and the X11 class (WM_CLASS) both: write app: \"firefox\" (a glob, or a list of globs: app: [firefox, chromium])"])
    }
}
