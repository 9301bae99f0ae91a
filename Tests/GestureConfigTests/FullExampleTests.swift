import Testing
import GestureCore
@testable import GestureConfig

/// Every key of the schema, read into the model.
@Suite struct FullExampleTests {
    static let yaml = """
        version: 1
        devices:
          grab: yes
          include:
            - kind: touchscreen
              name: "Wacom*Finger"
            - vendor: 0x056a
              product: 00e6
            - vendor-product: "04F3:2A1C"
            - path: /dev/input/by-id/usb-panel-event-touch
          ignore:
            - kind: tablet
        surfaces:
          - match: { kind: touchscreen, name: "ELAN*" }
            size: [1920, 1080]
            rotation: 90
            calibration: [1, 0, 0.5, 0, -1, 1]
            physical-size: [344mm, 19.4cm]
          - size: [800, 480]
        regions:
          id: panel
          publish-touches: true
          children:
            - id: sidebar
              frame: [0, 0, "25%", "100%"]
              device-kinds: [touchscreen, tablet]
              children:
                - id: ok-button
                  frame: [10, 10, 30, 20]
                  min-hit-size: [44, 48]
                  control: true
            - id: edge-strip
              frame: ["98%", 0, "2%", "100%"]
              redirect: drawer
              interactive: false
            - id: drawer
              frame: ["60.5%", 0, "39.5%", 100%]
              hidden: true
              min-hit-size: 40
        gestures:
          - id: tap
            kind: tap
            region: sidebar
            taps: 1
            fingers: 1
            movement: 4mm
            max-interval: 0.3s
            max-distance: 12mm
            max-duration: 700ms
            require-to-fail: [double-tap]
            cancels-touches: false
            delays-touches-began: true
            delays-touches-ended: false
          - id: double-tap
            kind: tap
            taps: 2
          - id: press
            kind: long-press
            taps: 1
            fingers: 2
            min-duration: 800ms
            movement: 2.5mm
            max-interval: 400ms
            max-distance: 8mm
            enabled: false
          - id: scroll
            kind: pan
            min-fingers: 2
            max-fingers: 3
            threshold: 1.5mm
          - id: flick
            kind: swipe
            fingers: 3
            directions: horizontal
            min-distance: 15mm
            max-duration: 400ms
            angle-tolerance: 20deg
            require-to-fail: scroll
          - id: zoom
            kind: pinch
            threshold: 4mm
            simultaneous-with: [turn]
          - id: turn
            kind: rotation
            threshold: 0.2rad
          - id: drawer-open
            kind: edge-pan
            region: drawer
            edges: [right, top]
            edge-zone: 7mm
            threshold: 3mm
            fingers: 1
          - id: all-edges
            kind: edge-pan
            edges: all
        bindings:
          max-concurrent: 2
          commands:
            - gesture: flick
              command: echo "$GESTURE_DIRECTION"
            - gesture: zoom
              states: [began, ended]
              command: zoom.sh
              timeout: 2s
        socket:
          path: /run/user/1000/gestured.sock
          mode: 0600
          owner: me
          group: input
          allowed-uids: [1000, 1001]
          queue-limit: 64
        """

    static func expected() -> Configuration {
        var tap = RecognizerParameters()
        tap.taps = 1
        tap.fingers = 1
        tap.tapMovement = 4
        tap.tapInterval = 300
        tap.tapDistance = 12
        tap.tapDuration = 700
        var doubleTap = RecognizerParameters()
        doubleTap.taps = 2
        var press = RecognizerParameters()
        press.taps = 2  // one full tap before the press: two touch-downs in the engine's count
        press.fingers = 2
        press.minimumPressDuration = 800
        press.pressMovement = 2.5
        press.tapInterval = 400
        press.tapDistance = 8
        var scroll = RecognizerParameters()
        scroll.minimumFingers = 2
        scroll.maximumFingers = 3
        scroll.panThreshold = 1.5
        var flick = RecognizerParameters()
        flick.fingers = 3
        flick.directions = [.left, .right]
        flick.minimumDistance = 15
        flick.maximumDuration = 400
        flick.angleTolerance = 20
        var zoom = RecognizerParameters()
        zoom.pinchThreshold = 4
        var turn = RecognizerParameters()
        turn.rotationThreshold = 0.2 * (180 / Double.pi)
        var drawer = RecognizerParameters()
        drawer.edges = [.right, .top]
        drawer.edgeZone = 7
        drawer.panThreshold = 3
        drawer.minimumFingers = 1
        drawer.maximumFingers = 1
        var allEdges = RecognizerParameters()
        allEdges.edges = Set(Edge.allCases)

        let root = RegionSpec(id: "panel", children: [
            RegionSpec(id: "sidebar", frame: RegionFrame(x: .absolute(0), y: .absolute(0), width: .percent(25), height: .percent(100)),
                       children: [
                           RegionSpec(id: "ok-button",
                                      frame: RegionFrame(x: .absolute(10), y: .absolute(10), width: .absolute(30), height: .absolute(20)),
                                      minimumHitSize: Point(x: 44, y: 48), isControl: true),
                       ],
                       deviceKinds: [.touchscreen, .tablet]),
            RegionSpec(id: "edge-strip", frame: RegionFrame(x: .percent(98), y: .absolute(0), width: .percent(2), height: .percent(100)),
                       interactionEnabled: false, redirect: "drawer"),
            RegionSpec(id: "drawer", frame: RegionFrame(x: .percent(60.5), y: .absolute(0), width: .percent(39.5), height: .percent(100)),
                       hidden: true, minimumHitSize: Point(x: 40, y: 40)),
        ], publishesTouches: true)

        let recognizers = [
            forwarding(RecognizerSpec(id: "tap", kind: .tap, region: "sidebar", parameters: tap, requireToFail: ["double-tap"],
                                      cancelsTouches: false, delaysTouchesBegan: true, delaysTouchesEnded: false),
                       claims: false, holds: .always),
            RecognizerSpec(id: "double-tap", kind: .tap, region: "panel", parameters: doubleTap),
            RecognizerSpec(id: "press", kind: .longPress, region: "panel", parameters: press, enabled: false),
            RecognizerSpec(id: "scroll", kind: .pan, region: "panel", parameters: scroll),
            // Bound (below): they claim; on touchpads they hold the finger that makes their count.
            forwarding(RecognizerSpec(id: "flick", kind: .swipe, region: "panel", parameters: flick, requireToFail: ["scroll"]),
                       claims: true, holds: .touchpadFingerCount(3)),
            forwarding(RecognizerSpec(id: "zoom", kind: .pinch, region: "panel", parameters: zoom, simultaneousWith: ["turn"]),
                       claims: true, holds: .touchpadFingerCount(2)),
            RecognizerSpec(id: "turn", kind: .rotation, region: "panel", parameters: turn),
            RecognizerSpec(id: "drawer-open", kind: .edgePan, region: "drawer", parameters: drawer),
            RecognizerSpec(id: "all-edges", kind: .edgePan, region: "panel", parameters: allEdges),
        ]
        return Configuration(
            engine: EngineConfiguration(root: root, recognizers: recognizers),
            devices: DeviceSelection(
                include: [
                    DeviceMatch(kind: .touchscreen, nameGlob: "Wacom*Finger"),
                    DeviceMatch(vendor: 0x056a, product: 0x00e6),
                    DeviceMatch(vendor: 0x04f3, product: 0x2a1c),
                    DeviceMatch(path: "/dev/input/by-id/usb-panel-event-touch"),
                ],
                ignore: [DeviceMatch(kind: .tablet)],
                grab: true),
            surfaces: [
                SurfaceRule(match: DeviceMatch(kind: .touchscreen, nameGlob: "ELAN*"),
                            surface: SurfaceConfiguration(size: Point(x: 1920, y: 1080), rotation: .clockwise90,
                                                          calibration: [1, 0, 0.5, 0, -1, 1],
                                                          physicalSize: Point(x: 344, y: 194))),
                SurfaceRule(match: DeviceMatch(), surface: SurfaceConfiguration(size: Point(x: 800, y: 480))),
            ],
            bindings: [
                Binding(gesture: "flick", command: "echo \"$GESTURE_DIRECTION\""),
                Binding(gesture: "zoom", states: [.began, .ended], command: "zoom.sh", timeout: 2000),
            ],
            bindingConcurrency: 2,
            socket: SocketSettings(path: "/run/user/1000/gestured.sock", mode: 0o600, owner: "me", group: "input",
                                   allowedUIDs: [1000, 1001], clientQueueLimit: 64))
    }

    @Test func everyFieldIsRead() throws {
        let parsed: Configuration
        do {
            parsed = try ConfigurationLoader.parse(Self.yaml, file: "full.yaml")
        } catch {
            Issue.record("unexpected errors:\n\(error)")
            return
        }
        let expected = Self.expected()
        // Field by field first, for readable failures; then the whole value.
        #expect(parsed.devices == expected.devices)
        #expect(parsed.surfaces == expected.surfaces)
        #expect(parsed.engine.root == expected.engine.root)
        for (got, want) in zip(parsed.engine.recognizers, expected.engine.recognizers) {
            #expect(got == want, "gesture \(want.id)")
        }
        #expect(parsed.engine.recognizers.count == expected.engine.recognizers.count)
        #expect(parsed.bindings == expected.bindings)
        #expect(parsed.bindingConcurrency == 2)
        #expect(parsed.socket == expected.socket)
        #expect(parsed == expected)
    }

    @Test func bindingsShortFormAndDefaults() throws {
        let yaml = """
            gestures:
              - { id: t, kind: tap }
            bindings:
              - gesture: t
                command: true
            """
        let configuration = try ConfigurationLoader.parse(yaml, file: "short.yaml")
        #expect(configuration.bindings == [Binding(gesture: "t", command: "true")])
        #expect(configuration.bindingConcurrency == Configuration.defaultBindingConcurrency)
        #expect(configuration.engine.root.id == "screen")
        #expect(configuration.engine.recognizers.first?.region == "screen")
    }

    @Test(arguments: [
        ("6", 6.0), ("6mm", 6), ("6 mm", 6), ("1.5cm", 15), ("1in", 25.4), ("0", 0),
    ])
    func lengths(text: String, millimetres: Double) {
        #expect(Quantity.length.parse(text) == millimetres)
    }

    @Test(arguments: [("350", 350.0), ("350ms", 350), ("0.35s", 350), ("2 s", 2000)])
    func durations(text: String, milliseconds: Double) {
        #expect(Quantity.duration.parse(text) == milliseconds)
    }

    @Test(arguments: ["6ms", "mm", "6 px", "abc", "1e999", "nan"])
    func badLengths(text: String) {
        #expect(Quantity.length.parse(text) == nil)
    }

    @Test func suggestions() {
        #expect(YAMLReader.suggestion(for: "tapz", among: ["taps", "fingers"]) == "taps")
        #expect(YAMLReader.suggestion(for: "simultaneous", among: ["simultaneous-with", "require-to-fail"]) == nil)
        #expect(YAMLReader.suggestion(for: "requre-to-fail", among: ["simultaneous-with", "require-to-fail"]) == "require-to-fail")
        #expect(YAMLReader.suggestion(for: "xyz", among: ["taps"]) == nil)
    }
}

extension FullExampleTests {
    @Test func mergeKeysShareSettings() throws {
        let yaml = """
            gestures:
              - &edge
                id: edge-left
                kind: edge-pan
                edges: [left]
                edge-zone: 8mm
                fingers: 1
              - <<: *edge
                id: edge-right
                edges: [right]
            """
        let recognizers = try ConfigurationLoader.parse(yaml, file: "merge.yaml").engine.recognizers
        #expect(recognizers.map(\.id) == ["edge-left", "edge-right"])
        #expect(recognizers.last?.parameters.edges == [.right])
        #expect(recognizers.last?.parameters.edgeZone == 8)
        #expect(recognizers.last?.parameters.maximumFingers == 1)
    }
}

extension FullExampleTests {
    /// Sections whose entries are all commented out are empty, not errors.
    @Test func emptySectionsAreEmpty() throws {
        let yaml = """
            devices:
            surfaces:
            gestures:
              # - id: tap
            bindings:
            socket:
            """
        let configuration = try ConfigurationLoader.parse(yaml, file: "empty-sections.yaml")
        #expect(configuration.devices == DeviceSelection())
        #expect(configuration.surfaces.isEmpty && configuration.bindings.isEmpty)
        #expect(configuration.engine.recognizers.isEmpty)
        #expect(configuration.socket == SocketSettings())
    }
}

/// `spec` with the forwarding fields the config layer computes (docs/forwarding.md).
private func forwarding(_ spec: RecognizerSpec, claims: Bool, holds: ForwardingHold) -> RecognizerSpec {
    var spec = spec
    spec.claimsForwarded = claims
    spec.holdsForwarded = holds
    return spec
}
