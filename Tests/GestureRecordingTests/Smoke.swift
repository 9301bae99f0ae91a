import Testing
@testable import GestureCore

@Test func jsonNumbersAreStableGestureRecordingTests() {
    #expect(JSONLine.number(0.5) == "0.5")
}
