import GestureConfig
import GestureCore
import Testing

/// Reading libinput's quirks files (`LibinputQuirks`, docs/input.md, "Device quirks").
@Suite struct LibinputQuirksTests {
    static func touchpad(_ name: String, bus: UInt16 = 0x11, vendor: UInt16 = 0, product: UInt16 = 0) -> DeviceDescription {
        DeviceDescription(name: name, bus: bus, vendor: vendor, product: product, properties: [.pointer])
    }

    static let vendorFile = """
        # Vendor facts
        [Elan Touchpads]
        MatchName=*Elan Touchpad*
        MatchUdevType=touchpad
        AttrResolutionHint=31x31
        AttrPressureRange=10:8

        [A USB mouse]
        MatchUdevType=mouse
        MatchBus=usb
        AttrPressureRange=40:30
        """
    static let systemFile = """
        [Elan on this laptop]
        MatchName=*Elan Touchpad*
        MatchDMIModalias=dmi:*svnACME:*
        AttrPressureRange=20:15   # heavier fingers on this model

        [One product of a vendor]
        MatchBus=i2c
        MatchVendor=0x04F3
        MatchProduct=0x0001;0x0002
        ModelSomethingOdd=1
        AttrPressureRange=5:3
        """

    @Test func aSectionAppliesWhenEveryMatchFitsAndALaterOneOverridesAnEarlier() {
        let quirks = LibinputQuirks(files: [("30-vendor.quirks", Self.vendorFile), ("50-system.quirks", Self.systemFile)])
        #expect(quirks.problems.isEmpty, "\(quirks.problems)")
        #expect(quirks.sections.map(\.name) == ["Elan Touchpads", "A USB mouse", "Elan on this laptop", "One product of a vendor"])
        let elan = Self.touchpad("Elan Touchpad")
        // A recording (no DMI): the vendor section only.
        #expect(quirks.quirks(for: elan, kind: .touchpad, dmiModalias: nil)
                    == DeviceQuirks(pressureRange: .init(begin: 10, end: 8), resolutionHint: .init(x: 31, y: 31)))
        // On the laptop the system section sets the pressure, the hint stays the vendor's.
        #expect(quirks.quirks(for: elan, kind: .touchpad, dmiModalias: "dmi:bvnX:svnACME:pnY:")
                    == DeviceQuirks(pressureRange: .init(begin: 20, end: 15), resolutionHint: .init(x: 31, y: 31)))
        #expect(quirks.quirks(for: elan, kind: .touchpad, dmiModalias: "dmi:bvnX:svnOTHER:pnY:").pressureRange?.begin == 10)
        // The udev type must fit: an "Elan Touchpad" that opened as a touchscreen is not the pad.
        #expect(quirks.quirks(for: elan, kind: .touchscreen, dmiModalias: nil) == DeviceQuirks())
    }

    @Test func busVendorAndAListOfProductsMatch() {
        let quirks = LibinputQuirks(files: [("50-system.quirks", Self.systemFile)])
        let second = Self.touchpad("Some pad", bus: 0x18, vendor: 0x04F3, product: 0x0002)
        #expect(quirks.quirks(for: second, kind: .touchpad, dmiModalias: nil).pressureRange == .init(begin: 5, end: 3))
        let otherProduct = Self.touchpad("Some pad", bus: 0x18, vendor: 0x04F3, product: 0x0003)
        #expect(quirks.quirks(for: otherProduct, kind: .touchpad, dmiModalias: nil).pressureRange == nil)
        let otherBus = Self.touchpad("Some pad", bus: 0x03, vendor: 0x04F3, product: 0x0002)
        #expect(quirks.quirks(for: otherBus, kind: .touchpad, dmiModalias: nil).pressureRange == nil)
    }

    /// A section that cannot be read is left out and named with its file and line; the others apply.
    @Test func aBrokenSectionIsLeftOutAndNamedTheOthersApply() {
        let text = """
            [Broken]
            MatchName=*Pad*
            AttrPressureRange=8:10
            [No value]
            MatchName=*Pad*
            AttrResolutionHint
            [Unknown match]
            MatchSomethingNew=1
            AttrPressureRange=50:40
            [Device tree]
            MatchDeviceTree=*rk3399*
            AttrPressureRange=60:50
            [Good]
            MatchName=*Pad*
            AttrPressureRange=12:9
            """
        let quirks = LibinputQuirks(files: [("local-overrides.quirks", text)])
        #expect(quirks.problems == [
            "local-overrides.quirks:3: AttrPressureRange '8:10' is not begin:end with begin >= end; section [Broken] left out",
            "local-overrides.quirks:6: expected Key=Value, got 'AttrResolutionHint'; section [No value] left out",
            "local-overrides.quirks:8: unknown match 'MatchSomethingNew'; section [Unknown match] left out",
        ])
        #expect(quirks.sections.map(\.name) == ["Device tree", "Good"])
        // A device-tree match cannot be tested here: that section never applies.
        #expect(quirks.quirks(for: Self.touchpad("A Pad"), kind: .touchpad, dmiModalias: nil).pressureRange == .init(begin: 12, end: 9))
    }

    @Test func aLineOutsideASectionIsAProblem() {
        let quirks = LibinputQuirks(files: [("x.quirks", "MatchName=*\n[S]\nMatchName=*\nAttrResolutionHint=0x5\n")])
        #expect(quirks.problems == [
            "x.quirks:1: 'MatchName=*' is outside any [Section]",
            "x.quirks:4: AttrResolutionHint '0x5' is not XxY units per mm; section [S] left out",
        ])
        #expect(quirks.sections.isEmpty)
    }

    @Test func theModaliasIsTheFilesLineAndAFileThatCannotBeReadIsAProblemFirst() {
        #expect(LibinputQuirks.dmiModalias(fromFileText: "dmi:bvnX:svnACME:\n") == "dmi:bvnX:svnACME:")
        #expect(LibinputQuirks.dmiModalias(fromFileText: "\n") == nil)
        let quirks = LibinputQuirks(files: [("x.quirks", "[S]\nMatchName=*\nAttrPressureRange=10:8\n")],
                                    unreadable: ["y.quirks: open failed: Permission denied (errno 13); the file is left out"])
        #expect(quirks.problems == ["y.quirks: open failed: Permission denied (errno 13); the file is left out"] && quirks.sections.count == 1)
    }
}
