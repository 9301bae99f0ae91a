import Testing
@testable import GestureConfig

/// One broken config and the single error it must produce.
struct BrokenCase: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var line: Int
    var column: Int
    var fragment: String
    var testDescription: String { name }
}

@Suite struct BrokenConfigTests {
    static let cases: [BrokenCase] = [
        BrokenCase(name: "unknown key", yaml: """
            gestures:
              - id: tap
                kind: tap
                tapz: 2
            """, line: 4, column: 5, fragment: "unknown key 'tapz' in gesture 'tap' (did you mean 'taps'?)"),
        BrokenCase(name: "unknown top-level key", yaml: """
            socket:
              path: /run/g.sock
            gesture:
              - id: tap
            """, line: 3, column: 1, fragment: "unknown key 'gesture' in the configuration (did you mean 'gestures'?)"),
        BrokenCase(name: "key of another kind", yaml: """
            gestures:
              - id: pinch
                kind: pinch
                edges: [left]
            """, line: 4, column: 5, fragment: "unknown key 'edges' in gesture 'pinch'"),
        BrokenCase(name: "wrong type", yaml: """
            gestures:
              - id: tap
                kind: tap
                taps: [1]
            """, line: 4, column: 11, fragment: "expected a whole number for 'taps' in gesture 'tap', got a list"),
        BrokenCase(name: "wrong type for a section", yaml: """
            version: 1
            gestures:
              tap: { kind: tap }
            """, line: 3, column: 3, fragment: "expected a list for 'gestures', got a mapping"),
        BrokenCase(name: "negative duration", yaml: """
            gestures:
              - id: tap
                kind: tap
                max-interval: -5ms
            """, line: 4, column: 19, fragment: "'max-interval' in gesture 'tap' must be more than zero, got '-5ms'"),
        BrokenCase(name: "wrong unit", yaml: """
            gestures:
              - id: tap
                kind: tap
                movement: 6ms
            """, line: 4, column: 15, fragment: "expected a length (e.g. 6mm) for 'movement' in gesture 'tap', got '6ms'"),
        BrokenCase(name: "bad direction", yaml: """
            gestures:
              - id: swipe
                kind: swipe
                fingers: 3
                directions: [up, sideways]
            """, line: 5, column: 22,
            fragment: "bad value 'sideways' for 'directions' in gesture 'swipe': expected one of up, down, left, right"),
        BrokenCase(name: "bad kind with suggestion", yaml: """
            gestures:
              - id: turn
                kind: rotate
            """, line: 3, column: 11, fragment: "bad value 'rotate' for 'kind' in gesture 'turn'"),
        BrokenCase(name: "fingers out of range", yaml: """
            gestures:
              - id: tap
                kind: tap
                fingers: 0
            """, line: 4, column: 14, fragment: "'fingers' in gesture 'tap' must be between 1 and 10, got 0"),
        BrokenCase(name: "missing kind", yaml: """
            gestures:
              - id: tap
                taps: 2
            """, line: 2, column: 5, fragment: "missing key 'kind' in gesture 'tap'"),
        BrokenCase(name: "missing id", yaml: """
            gestures:
              - kind: tap
            """, line: 2, column: 5, fragment: "missing key 'id' in gestures[0]"),
        BrokenCase(name: "unknown region in a gesture", yaml: """
            regions:
              id: screen
            gestures:
              - id: tap
                kind: tap
                region: scren
            """, line: 6, column: 13, fragment: "unknown region 'scren' in 'region' of gesture 'tap' (did you mean 'screen'?)"),
        BrokenCase(name: "unknown region in a redirect", yaml: """
            regions:
              id: screen
              children:
                - id: drawer
                - id: strip
                  redirect: drawr
            """, line: 6, column: 17, fragment: "unknown region 'drawr' in 'redirect' of region 'strip' (did you mean 'drawer'?)"),
        BrokenCase(name: "unknown gesture in require-to-fail", yaml: """
            gestures:
              - id: tap
                kind: tap
                require-to-fail: [doubletap]
              - id: double-tap
                kind: tap
                taps: 2
            """, line: 4, column: 23,
            fragment: "unknown gesture 'doubletap' in 'require-to-fail' of gesture 'tap' (did you mean 'double-tap'?)"),
        BrokenCase(name: "unknown gesture in simultaneous-with", yaml: """
            gestures:
              - id: pinch
                kind: pinch
                simultaneous-with: rotation
            """, line: 4, column: 24, fragment: "unknown gesture 'rotation' in 'simultaneous-with' of gesture 'pinch'"),
        BrokenCase(name: "require-to-fail cycle", yaml: """
            gestures:
              - id: a
                kind: tap
                require-to-fail: [b]
              - id: b
                kind: tap
                require-to-fail: [c]
              - id: c
                kind: tap
                require-to-fail: [a]
            """, line: 10, column: 23, fragment: "require-to-fail cycle: a → b → c → a"),
        BrokenCase(name: "require itself", yaml: """
            gestures:
              - id: a
                kind: tap
                require-to-fail: [a]
            """, line: 4, column: 23, fragment: "gesture 'a' cannot require itself to fail"),
        BrokenCase(name: "duplicate gesture id", yaml: """
            gestures:
              - id: tap
                kind: tap
              - id: tap
                kind: swipe
            """, line: 4, column: 9, fragment: "duplicate gesture id 'tap' (first defined at line 2)"),
        BrokenCase(name: "duplicate region id", yaml: """
            regions:
              id: screen
              children:
                - id: a
                - id: screen
            """, line: 5, column: 11, fragment: "duplicate region id 'screen' (first defined at line 2)"),
        BrokenCase(name: "YAML syntax error", yaml: """
            gestures:
              - id: tap
                kind: tap
               taps: 2
            """, line: 4, column: 4, fragment: "YAML syntax error"),
        BrokenCase(name: "duplicate YAML key", yaml: """
            socket:
              path: /run/a.sock
              path: /run/b.sock
            """, line: 2, column: 3, fragment: "duplicate key 'path' in the same mapping"),
        BrokenCase(name: "frame with 3 items", yaml: """
            regions:
              id: screen
              children:
                - id: a
                  frame: [0, 0, 10]
            """, line: 5, column: 14, fragment: "'frame' in region 'a' needs 4 items [x, y, width, height], got 3"),
        BrokenCase(name: "bad percentage", yaml: """
            regions:
              id: screen
              children:
                - id: a
                  frame: [0, 0, "ten%", 10]
            """, line: 5, column: 21, fragment: "bad percentage 'ten%' for width of the 'frame' in region 'a'"),
        BrokenCase(name: "negative width", yaml: """
            regions:
              id: screen
              children:
                - id: a
                  frame: [0, 0, -10, 10]
            """, line: 5, column: 21, fragment: "width of the 'frame' in region 'a' must not be negative"),
        BrokenCase(name: "frame on the root", yaml: """
            regions:
              id: screen
              frame: [0, 0, 10, 10]
            """, line: 3, column: 3, fragment: "the root region 'screen' always covers the whole surface"),
        BrokenCase(name: "bad rotation", yaml: """
            surfaces:
              - size: [1920, 1080]
                rotation: 45
            """, line: 3, column: 15, fragment: "'rotation' in surfaces[0] must be 0, 90, 180 or 270, got 45"),
        BrokenCase(name: "calibration with 4 numbers", yaml: """
            surfaces:
              - calibration: [1, 0, 0, 1]
            """, line: 2, column: 18, fragment: "'calibration' in surfaces[0] needs 6 numbers"),
        BrokenCase(name: "bad vendor id", yaml: """
            devices:
              include:
                - vendor: wacom
            """, line: 3, column: 15, fragment: "expected a hexadecimal id like 0x056a for 'vendor' in devices.include[0]"),
        BrokenCase(name: "bad device kind", yaml: """
            devices:
              ignore:
                - kind: touchpads
            """, line: 3, column: 13, fragment: "bad value 'touchpads' for 'kind' in devices.ignore[0]"),
        BrokenCase(name: "binding to an unknown gesture", yaml: """
            gestures:
              - id: swipe-3
                kind: swipe
            bindings:
              - gesture: swipe3
                command: true
            """, line: 5, column: 14, fragment: "unknown gesture 'swipe3' in 'gesture' of binding 1 (line 5) (did you mean 'swipe-3'?)"),
        BrokenCase(name: "binding state a tap never has", yaml: """
            gestures:
              - id: tap
                kind: tap
            bindings:
              - gesture: tap
                states: [began]
                command: true
            """, line: 6, column: 14, fragment: "a tap gesture ('tap') never reports state 'began'"),
        BrokenCase(name: "binding without command", yaml: """
            gestures:
              - id: tap
                kind: tap
            bindings:
              - gesture: tap
            """, line: 5, column: 5, fragment: "missing key 'command' or 'keys' in binding 1"),
        BrokenCase(name: "bad socket mode", yaml: """
            socket:
              mode: "0999"
            """, line: 2, column: 9, fragment: "expected an octal file mode like \"0660\" for 'mode' in 'socket'"),
        BrokenCase(name: "pan finger range reversed", yaml: """
            gestures:
              - id: pan
                kind: pan
                min-fingers: 3
                max-fingers: 2
            """, line: 5, column: 18, fragment: "'max-fingers' (2) is below 'min-fingers' (3) in gesture 'pan'"),
    ]

    @Test(arguments: cases)
    func brokenConfigReportsPosition(_ broken: BrokenCase) throws {
        let errors = parseErrors(broken.yaml)
        #expect(errors.count == 1, "errors: \(errors)")
        let error = try #require(errors.first)
        #expect(error.file == "config.yaml")
        #expect(error.line == broken.line, "\(error)")
        #expect(error.column == broken.column, "\(error)")
        #expect(error.message.contains(broken.fragment), "\(error)")
    }

    @Test func messageFormat() throws {
        let errors = parseErrors("""
            gestures:
              - id: tap
                kind: tap
                tapz: 2
            """)
        #expect(errors.map(\.description)
            == ["config.yaml:4:5: unknown key 'tapz' in gesture 'tap' (did you mean 'taps'?)"])
    }

    @Test func everyErrorIsCollectedInFileOrder() {
        let errors = parseErrors("""
            regions:
              id: screen
              children:
                - id: a
                  frame: [0, 0, 10]
            gestures:
              - id: tap
                kind: tap
                region: b
                fingers: -1
                tapz: 2
              - id: tap
                kind: swipe
            bindings:
              - gesture: nope
                command: true
            """)
        #expect(errors.map { "\($0.line):\($0.column)" } == ["5:14", "9:13", "10:14", "11:5", "12:9", "15:14"],
                "\(errors)")
    }

    @Test func syntaxErrorStopsAtTheFirstProblem() {
        let errors = parseErrors("socket: [unclosed\n")
        #expect(errors.count == 1)
        #expect(errors.first?.message.hasPrefix("YAML syntax error") == true, "\(errors)")
    }
}

extension BrokenConfigTests {
    @Test func emptyDeviceMatchIsRefused() {
        let errors = parseErrors("""
            devices:
              ignore:
                - {}
            """)
        #expect(errors.map(\.description) == ["config.yaml:3:7: empty match in devices.ignore[0] would match every device"])
    }

    @Test func syntaxErrorMessageNamesTheProblem() throws {
        let errors = parseErrors("""
            gestures:
              - id: tap
                kind: tap
               taps: 2
            """)
        let error = try #require(errors.first)
        #expect(error.description
            == "config.yaml:4:4: YAML syntax error: did not find expected '-' indicator (while parsing a block collection at line 2, column 3); "
                + "check the indentation of line 4 (3 spaces): the keys of one mapping start in the same column, and the items of one list too")
    }
}

extension BrokenConfigTests {
    /// A gesture with a bad kind still defines its id: no cascade of "unknown gesture" errors.
    @Test func badKindDoesNotCascade() {
        let errors = parseErrors("""
            gestures:
              - id: double-tap
                kind: tapp
                taps: 2
              - id: tap
                kind: tap
                require-to-fail: [double-tap]
            bindings:
              - gesture: double-tap
                command: true
            """)
        #expect(errors.map(\.description)
            == ["config.yaml:3:11: bad value 'tapp' for 'kind' in gesture 'double-tap': expected one of \(everyKind) (did you mean 'tap'?)"])
    }
}

extension BrokenConfigTests {
    @Test(arguments: [
        ("gestures:\n\t- id: x\n", "config.yaml:2:1: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 2, column 1); indent with spaces, YAML does not allow tabs"),
        ("---\na: 1\n---\nb: 2\n", "config.yaml:3:1: YAML syntax error: expected a single document in the stream, but found another document"),
        ("version: 2\n", "config.yaml:1:10: 'version' must be 1, got 2"),
        ("regions:\n  - id: screen\n", "config.yaml:2:3: 'regions' is the root region, a mapping with 'id' and 'children', not a list"),
        ("regions:\n  id: a\n  children:\n    - id: b\n      redirect: c\n    - id: c\n      redirect: b\n",
         "config.yaml:7:17: redirect cycle: b → c → b"),
    ])
    func exactMessages(yaml: String, message: String) {
        #expect(parseErrors(yaml).map(\.description) == [message])
    }
}
