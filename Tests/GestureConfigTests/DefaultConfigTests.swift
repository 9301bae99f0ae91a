import Testing
import GestureCore
@testable import GestureConfig

/// The embedded default config.
@Suite struct DefaultConfigTests {
    @Test func defaultConfigParsesWithoutErrors() throws {
        let configuration = try ConfigurationLoader.parse(ConfigurationLoader.defaultYAML, file: "default.yaml")
        #expect(configuration == ConfigurationLoader.loadDefault())
    }

    @Test func defaultConfigHasTheExpectedGestures() {
        let configuration = ConfigurationLoader.loadDefault()
        let ids = configuration.engine.recognizers.map(\.id)
        #expect(ids == ["tap", "double-tap", "long-press", "two-finger-tap", "three-finger-tap", "pan", "two-finger-pan", "pinch", "rotate",
                        "swipe-3", "swipe-4", "edge-left", "edge-right", "edge-top", "edge-bottom"])
        #expect(configuration.engine.root.id == "screen")
        #expect(configuration.engine.root.frame == .full)
        #expect(configuration.engine.recognizers.allSatisfy { $0.region == "screen" && $0.enabled })
        #expect(configuration.socket == SocketSettings())
        #expect(configuration.devices == DeviceSelection())
    }

    @Test func defaultConfigRelations() throws {
        let byID = Dictionary(uniqueKeysWithValues: ConfigurationLoader.loadDefault().engine.recognizers.map { ($0.id, $0) })
        let tap = try #require(byID["tap"])
        #expect(tap.kind == .tap && tap.parameters.taps == 1 && tap.parameters.fingers == 1)
        #expect(tap.requireToFail == ["double-tap"])
        #expect(byID["double-tap"]?.parameters.taps == 2)
        #expect(byID["two-finger-tap"]?.parameters.fingers == 2)
        #expect(byID["long-press"]?.kind == .longPress)
        #expect(byID["rotate"]?.kind == .rotation)
        #expect(byID["rotate"]?.simultaneousWith == ["pinch"])
        let scroll = try #require(byID["two-finger-pan"])
        #expect(scroll.parameters.minimumFingers == 2 && scroll.parameters.maximumFingers == 2)
        let pan = try #require(byID["pan"])
        #expect(pan.parameters.minimumFingers == 1 && pan.parameters.maximumFingers == 1)
        #expect(pan.requireToFail == ["edge-left", "edge-right", "edge-top", "edge-bottom"])
        for (id, fingers) in [("swipe-3", 3), ("swipe-4", 4)] {
            let swipe = try #require(byID[id])
            #expect(swipe.kind == .swipe && swipe.parameters.fingers == fingers)
            #expect(swipe.parameters.directions == Set(SwipeDirection.allCases))
        }
        for edge in Edge.allCases {
            let recognizer = try #require(byID["edge-\(edge.rawValue)"])
            #expect(recognizer.kind == .edgePan && recognizer.parameters.edges == [edge])
            #expect(recognizer.parameters.maximumFingers == 1)
        }
    }

    /// Thresholds left out of the default file come from the core's `RecognizerParameters()`.
    @Test func defaultConfigTakesCoreDefaults() throws {
        let defaults = RecognizerParameters()
        let byID = Dictionary(uniqueKeysWithValues: ConfigurationLoader.loadDefault().engine.recognizers.map { ($0.id, $0) })
        let doubleTap = try #require(byID["double-tap"])
        #expect(doubleTap.parameters.tapInterval == defaults.tapInterval)
        #expect(doubleTap.parameters.tapMovement == defaults.tapMovement)
        #expect(byID["long-press"]?.parameters.minimumPressDuration == defaults.minimumPressDuration)
        #expect(byID["swipe-3"]?.parameters.minimumDistance == defaults.minimumDistance)
        #expect(byID["pinch"]?.parameters.pinchThreshold == defaults.pinchThreshold)
        #expect(byID["rotate"]?.parameters.rotationThreshold == defaults.rotationThreshold)
        #expect(byID["edge-left"]?.parameters.edgeZone == defaults.edgeZone)
    }

    @Test func defaultYAMLMatchesTheShippedFile() throws {
        let path = Repository.root + "/config/default.yaml"
        let file = try #require(readText(path), "cannot read \(path)")
        #expect(Array(file.utf8) == Array(ConfigurationLoader.defaultYAML.utf8),
                "config/default.yaml and ConfigurationLoader.defaultYAML differ: run scripts/embed-default-config.sh")
    }

    @Test func loadingTheShippedFileGivesTheDefault() throws {
        let configuration = try ConfigurationLoader.load(path: Repository.root + "/config/default.yaml")
        #expect(configuration == ConfigurationLoader.loadDefault())
    }

    @Test func missingFileIsOneErrorWithoutPosition() {
        do {
            _ = try ConfigurationLoader.load(path: "/nonexistent/gestured.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.errors.first?.line == 0)
            #expect(error.description.hasPrefix("/nonexistent/gestured.yaml: cannot read the file"))
        }
    }

    @Test func emptyFileIsABareRoot() throws {
        let configuration = try ConfigurationLoader.parse("# nothing\n", file: "empty.yaml")
        #expect(configuration.engine.root == RegionSpec(id: "screen"))
        #expect(configuration.engine.recognizers.isEmpty)
    }
}

/// The default thresholds written as comments in config/default.yaml (`    # movement: 5mm  # ...`) are the
/// core's real defaults: uncommenting every one of them must not change the loaded configuration.
@Suite struct CommentedDefaultsTests {
    @Test func commentedThresholdsAreTheBuiltInDefaults() throws {
        var uncommented: [String] = []
        var count = 0
        for line in ConfigurationLoader.defaultYAML.split(separator: "\n", omittingEmptySubsequences: false) {
            // Only parameter comments inside a gesture: four spaces, "# key: value", an optional note.
            if line.hasPrefix("    # "), let match = line.wholeMatch(of: /\ {4}# ([a-z-]+): (\S+)(\s+#.*)?/) {
                uncommented.append("    \(match.1): \(match.2)")
                count += 1
            } else {
                uncommented.append(String(line))
            }
        }
        #expect(count >= 10, "found only \(count) commented thresholds")
        let explicit = try ConfigurationLoader.parse(uncommented.joined(separator: "\n"), file: "uncommented.yaml")
        #expect(explicit == ConfigurationLoader.loadDefault())
    }
}
