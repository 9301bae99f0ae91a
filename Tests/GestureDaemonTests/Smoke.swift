import Testing
@testable import GestureCore

@Test func jsonNumbersAreStableGestureDaemonTests() {
    #expect(JSONLine.number(0.5) == "0.5")
}
