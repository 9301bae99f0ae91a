import Testing
@testable import GestureReport

/// `gesturectl status` and `devices` as a person reads them: durations with their unit, a surface as
/// width × height, axis lists as lists.
@Suite struct ResponseTextForPeopleTests {
    @Test func theDesktopsAgeIsADurationLikeTheUptime() {
        let lines = ResponseText.lines(#"{"type":"response","request":"status","ok":true,"uptime":8.2,"desktop":{"bridge":"sway","outputs":1,"windows":3,"snapshot":7,"age":4.108474}}"#)
        #expect(lines.contains("uptime   8.2 s"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("desktop") && $0.hasSuffix("age 4.1 s") }, "\(lines)")
    }

    @Test func aDevicesSurfaceIsWidthByHeightAndItsAxesAList() {
        let lines = ResponseText.lines(#"{"type":"response","request":"devices","ok":true,"devices":[{"id":1,"name":"ELAN","kind":"touchscreen","surface":{"x":106.666667,"y":60},"axes-moved":["ABS_X","ABS_Y"],"axes-still":[]}]}"#)
        #expect(lines.contains { $0.contains("surface") && $0.hasSuffix("106.7 × 60") }, "\(lines)")
        #expect(lines.contains { $0.contains("axes-moved") && $0.hasSuffix("ABS_X, ABS_Y") }, "\(lines)")
        #expect(lines.contains { $0.contains("axes-still") && $0.hasSuffix("none") }, "\(lines)")
    }
}
