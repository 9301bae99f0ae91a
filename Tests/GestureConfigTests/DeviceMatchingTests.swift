import Testing
import GestureCore
@testable import GestureConfig

@Suite struct DeviceMatchingTests {
    static let wacom = DeviceDescription(name: "Wacom ISDv4 E6 Finger", vendor: 0x056a, product: 0x00e6,
                                         properties: [.direct], path: "/dev/input/event7")

    @Test func matchFields() {
        #expect(DeviceMatch().matches(Self.wacom, kind: .touchscreen))
        #expect(DeviceMatch(kind: .touchscreen, nameGlob: "Wacom*Finger").matches(Self.wacom, kind: .touchscreen))
        #expect(!DeviceMatch(kind: .touchpad).matches(Self.wacom, kind: .touchscreen))
        #expect(!DeviceMatch(nameGlob: "*Pen").matches(Self.wacom, kind: .touchscreen))
        #expect(DeviceMatch(vendor: 0x056a, product: 0x00e6).matches(Self.wacom, kind: .touchscreen))
        #expect(!DeviceMatch(vendor: 0x056a, product: 0x00e7).matches(Self.wacom, kind: .touchscreen))
        #expect(DeviceMatch(path: "/dev/input/event7").matches(Self.wacom, kind: .touchscreen))
        #expect(!DeviceMatch(path: "/dev/input/event8").matches(Self.wacom, kind: .touchscreen))
    }

    @Test func selectionFromConfig() throws {
        let configuration = try ConfigurationLoader.parse("""
            devices:
              include: [{ kind: touchscreen }]
              ignore: [{ name: "*Pen*" }]
            surfaces:
              - match: { vendor-product: "056a:00e6" }
                size: [1920, 1080]
            """, file: "devices.yaml")
        #expect(configuration.devices.selects(Self.wacom, kind: .touchscreen))
        #expect(!configuration.devices.selects(Self.wacom, kind: .touchpad))
        var pen = Self.wacom
        pen.name = "Wacom ISDv4 E6 Pen"
        #expect(!configuration.devices.selects(pen, kind: .touchscreen))
        #expect(configuration.surface(for: Self.wacom).size == Point(x: 1920, y: 1080))
        #expect(configuration.surface(for: pen, kind: .touchscreen) == SurfaceConfiguration(size: Point(x: 1920, y: 1080)))
        var other = Self.wacom
        other.product = 1
        #expect(configuration.surface(for: other) == SurfaceConfiguration())
    }

    @Test func emptyIncludeTakesTouchDevicesOnly() {
        let selection = DeviceSelection()
        #expect(selection.selects(Self.wacom, kind: .touchpad))
        #expect(!selection.selects(Self.wacom, kind: .other))
    }
}
