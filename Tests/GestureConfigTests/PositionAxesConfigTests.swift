import GestureCore
import Testing
@testable import GestureConfig

/// `axes:` in a `surfaces:` rule: where a device's position comes from when its usual axes are broken.
@Suite struct PositionAxesConfigTests {
    @Test func axesNameTheCodesTheRuleReadsThePositionFrom() throws {
        let yaml = """
            surfaces:
              - match: { name: "eGalax Inc. USB TouchController" }
                axes: { x: ABS_Z, y: abs_rx }
            """
        let configuration = try ConfigurationLoader.parse(yaml, file: "c.yaml")
        let device = DeviceDescription(name: "eGalax Inc. USB TouchController")
        #expect(configuration.surface(for: device).axes == PositionAxes(x: EventCode(0x02), y: EventCode(0x03)))
        #expect(configuration.surface(for: DeviceDescription(name: "other")).axes == nil)
    }

    @Test func aMistypedAxisIsNamedAtItsPlaceWithAGuess() {
        let errors = parseErrors("surfaces:\n  - match: { name: x }\n    axes: { x: ABS_ZZ, y: ABS_RX }\n", file: "c.yaml")
        #expect(errors.map(\.description) == [
            "c.yaml:3:16: unknown axis 'ABS_ZZ' for 'x' in 'axes' in surfaces[0]: expected a kernel axis name like ABS_Z or ABS_RX (did you mean 'ABS_Z'?)"])
    }

    @Test(arguments: [
        ("axes: { x: ABS_Z }", "'axes' in surfaces[0] needs both 'x' and 'y', each an axis name like ABS_Z"),
        ("axes: { x: ABS_Z, y: ABS_Z }", "'x' and 'y' in 'axes' in surfaces[0] name the same axis ABS_Z"),
        ("axes: { x: ABS_Z, y: ABS_MT_POSITION_Y }", "'axes' in surfaces[0] mixes a multitouch axis (ABS_MT_*) with another"),
        ("axes: { x: ABS_Z, z: ABS_RX }", "unknown key 'z' in 'axes' in surfaces[0] (did you mean 'x'?)"),
        ("axis: { x: ABS_Z, y: ABS_RX }", "unknown key 'axis' in surfaces[0] (did you mean 'axes'?)"),
    ])
    func brokenAxesSayWhatIsWrong(line: String, message: String) {
        let errors = parseErrors("surfaces:\n  - match: { name: x }\n    \(line)\n")
        #expect(errors.first?.message.hasPrefix(message) == true, "\(errors)")
    }
}
