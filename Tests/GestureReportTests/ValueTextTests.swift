import Testing
import GestureCore
@testable import GestureReport

@Suite struct ValueTextTests {
    @Test func numbersAreShortAndNeverNegativeZero() {
        #expect(ValueText.number(3.24) == "3.2")
        #expect(ValueText.number(-30.06) == "-30.1")
        #expect(ValueText.number(132.3) == "132")
        #expect(ValueText.number(-0.04) == "0.0")
        #expect(ValueText.number(0.739744, decimals: 2) == "0.74")
        #expect(ValueText.milliseconds(231.6) == "232")
    }
}
