import Testing
@testable import GestureCore

/// Explain reasons read true as written, and routine lines are told apart from decisions.
@Suite struct ReasonTextTests {
    static func text(_ reason: Reason) -> String { reason.text(name: { "r\($0)" }) }

    @Test func aComparisonIsPrintedWithThePrecisionThatKeepsItTrue() {
        #expect(Self.text(.movedTooFar(3.04, 3)) == "moved 3.04 mm > 3 mm")
        #expect(Self.text(.movedTooFar(3.0004, 3)) == "moved 3.0004 mm > 3 mm")
        #expect(Self.text(.movedTooFar(7.24, 5)) == "moved 7.2 mm > 5 mm")
        #expect(Self.text(.moved(2.96, 3)) == "moved 3 mm >= 3 mm")  // true as printed
        #expect(Self.text(.notEnoughMovement(2.96, 3)) == "lifted after moving 2.96 mm < 3 mm")
        // A pan whose fingers moved 7.5 mm but never together while a pinch could still be the gesture.
        #expect(Self.text(.notEnoughMovement(7.5, 3)) == "lifted before it began, though it moved 7.5 mm >= 3 mm")
        #expect(Self.text(.liftedEarly(149.97, 150)) == "lifted after 149.97 ms < 150 ms")
        #expect(Self.text(.heldTooLong(500, 500)) == "held too long: 500 ms (max 500 ms)")
        #expect(Self.text(.tooSlow(350.04, 350)) == "too slow: 350.04 ms > 350 ms")
        #expect(Self.text(.nextTapTooFar(10.01, 10)) == "next tap 10.01 mm away > 10 mm")
        #expect(Self.text(.offAxis(30.02, 30)) == "wrong direction: 30.02° off axis > 30°")
        #expect(Self.text(.outsideEdgeZone(5.04, 5)) == "started 5.04 mm from the edge > 5 mm zone")
        #expect(Self.text(.notEnoughTurn(7.96, 8)) == "lifted after turning 7.96° < 8°")
        #expect(Self.text(.notEnoughTurn(9, 8)) == "lifted before it began, though it turned 9° >= 8°")
        #expect(Self.text(.turnDoesNotDominate(10.7, 0.8)) == "rotation 10.7° does not dominate a ×0.80 scale change")
    }

    @Test func routineReasonsAreTheOnesThatDecideNothing() {
        #expect(Reason.moving.isRoutine && Reason.lifted.isRoutine && Reason.sequenceEnded.isRoutine)
        #expect(!Reason.movedTooFar(6, 5).isRoutine && !Reason.excludedBy(1).isRoutine && !Reason.requiredFailed.isRoutine)
        #expect(ExplainEvent(gesture: "g", region: "r", from: .possible, to: .possible, time: .zero, reason: "x",
                             routine: true).jsonLine.hasSuffix(#","routine":true}"#))
        #expect(!ExplainEvent(gesture: "g", region: "r", from: .possible, to: .failed, time: .zero, reason: "x")
            .jsonLine.contains("routine"))
    }
}
