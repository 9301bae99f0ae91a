import Testing
import GestureDesktop

/// `gesturectl setup` finds the touchpads and touchscreens in `/proc/bus/input/devices`.
@Suite struct InputDeviceKindsTests {
    static let touchpad = """
        I: Bus=0018 Vendor=06cb Product=7e7e Version=0100
        N: Name="SYNA7DB5:01 06CB:7E7E Touchpad"
        P: Phys=i2c-SYNA7DB5:01
        S: Sysfs=/devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/i2c-SYNA7DB5:01/0018:06CB:7E7E.0001/input/input6
        U: Uniq=
        H: Handlers=mouse0 event6
        B: PROP=5
        B: EV=1b
        B: KEY=e520 10000 0 0 0 0
        B: ABS=2e0800000000003
        B: MSC=20
        """
    static let touchscreen = """
        I: Bus=0018 Vendor=04f3 Product=2494 Version=0100
        N: Name="ELAN Touchscreen"
        H: Handlers=mouse1 event7
        B: PROP=2
        B: EV=b
        B: KEY=400 0 0 0 0 0
        B: ABS=3273800000000003
        """
    static let pen = """
        I: Bus=0003 Vendor=056a Product=5146 Version=0110
        N: Name="Wacom HID 5146 Pen"
        B: PROP=2
        B: EV=1b
        B: KEY=1c03 0 0 0 0 0
        B: ABS=1000d000003
        """
    static let keyboard = """
        I: Bus=0011 Vendor=0001 Product=0001 Version=ab83
        N: Name="AT Translated Set 2 keyboard"
        H: Handlers=sysrq kbd event0 leds
        B: PROP=0
        B: EV=120013
        B: KEY=402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe
        B: MSC=10
        B: LED=7
        """

    @Test func aTouchpadAndATouchscreenAreToldApartByTheDirectProperty() {
        let both = InputDeviceKinds.parse(procDevices: [Self.keyboard, Self.touchpad, Self.touchscreen].joined(separator: "\n\n") + "\n")
        #expect(both == InputDeviceKinds(touchpad: true, touchscreen: true))
        #expect(InputDeviceKinds.parse(procDevices: Self.touchpad) == InputDeviceKinds(touchpad: true, touchscreen: false))
        #expect(InputDeviceKinds.parse(procDevices: Self.touchscreen + "\n\n" + Self.keyboard) == InputDeviceKinds(touchpad: false, touchscreen: true))
    }

    @Test func aPenAndAKeyboardAreNeither() {
        let none = InputDeviceKinds.parse(procDevices: Self.pen + "\n\n" + Self.keyboard)
        #expect(none.isEmpty)
        #expect(none.phrase == "no touchpad or touchscreen")
    }
}
