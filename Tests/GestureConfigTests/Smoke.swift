import Testing
@testable import GestureCore

@Test func jsonNumbersAreStableGestureConfigTests() {
    #expect(JSONLine.number(0.5) == "0.5")
}
