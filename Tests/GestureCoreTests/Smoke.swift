import Testing
@testable import GestureCore

@Test func jsonNumbersAreStableGestureCoreTests() {
    #expect(JSONLine.number(0.5) == "0.5")
}
