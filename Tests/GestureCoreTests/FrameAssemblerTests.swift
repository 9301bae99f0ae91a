import Testing
@testable import GestureCore

@Suite struct ProtocolBTests {
    @Test func oneFingerGoesThroughBeganMovedStationaryEnded() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 10, x: 100, y: 200)
        s.report()
        s.move(slot: 0, x: 150, y: 200)
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.moved], [.ended]])
        #expect(frames[1].touches[0].previousLocation == frames[0].touches[0].location)
        #expect(frames[1].touches[0].physicalLocation == Point(x: 15, y: 20))
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func frameIsEmittedOnlyWhenSomethingChanged() {
        var s = EventScript.protocolB(extra: [.absMTPressure: AbsInfo(minimum: 0, maximum: 255)])
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.abs(.absMTPressure, 50)   // pressure only: the touch is stationary
        s.report()
        s.report()                  // nothing at all
        s.move(slot: 0, x: 100, y: 100) // same position again
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.ended]])
    }

    @Test func twoFingersKeepTheirIdsAndOtherFingersAreStationary() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.down(slot: 1, id: 2, x: 500, y: 500)
        s.report()
        s.move(slot: 1, x: 520, y: 500)
        s.report()
        s.up(slot: 0)
        s.up(slot: 1)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began, .began], [.stationary, .moved], [.ended, .ended]])
        let ids = frames[0].touches.map(\.id)
        #expect(frames[2].touches.map(\.id) == ids)
        #expect(Set(ids).count == 2)
        #expect(frames[1].activeFingerCount == 2)
    }

    @Test func newTrackingIdWithoutReleaseEndsTheOldTouchAndBeginsANewOne() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.abs(.absMTTrackingID, 2) // no -1 before
        s.abs(.absMTPositionX, 300)
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.count == 3)
        #expect(frames[1].phases == [.ended, .began])
        #expect(frames[1].touches[0].id == frames[0].touches[0].id)
        #expect(frames[1].touches[1].id != frames[0].touches[0].id)
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func sameTrackingIdSentAgainContinuesTheTouch() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.abs(.absMTTrackingID, 1)
        s.abs(.absMTPositionX, 120)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.moved], [.cancelled]])
    }

    @Test func slotsOutOfRangeAreIgnored() {
        var s = EventScript.protocolB(slots: 2)
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.abs(.absMTSlot, 999_999)
        s.abs(.absMTTrackingID, 7)
        s.abs(.absMTPositionX, 5)
        s.abs(.absMTSlot, -3)
        s.abs(.absMTTrackingID, 8)
        s.abs(.absMTSlot, Int32.max)
        s.abs(.absMTTrackingID, Int32.max)
        s.report()
        s.move(slot: 0, x: 110, y: 100)
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.moved], [.ended]])
        #expect(frames[0].touches[0].physicalLocation == Point(x: 10, y: 10))
    }

    @Test func absurdSlotCountInTheDescriptionIsClamped() {
        var s = EventScript.protocolB(extra: [.absMTSlot: AbsInfo(minimum: 0, maximum: Int32.max)])
        s.down(slot: 40, id: 1, x: 100, y: 100)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.cancelled]])
    }

    @Test func synDroppedCancelsIgnoresUntilReportThenTouchesBeginAnew() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.down(slot: 1, id: 2, x: 500, y: 500)
        s.report()
        s.syn(.synDropped)
        s.up(slot: 1)          // lost in the drop: ignored
        s.move(slot: 0, x: 900, y: 900)
        s.report()             // end of the drop: both touches cancelled
        s.move(slot: 0, x: 120, y: 100)
        s.report()             // a contact the device still reports begins anew
        s.abs(.absMTSlot, 1)
        s.abs(.absMTPositionX, 510)
        s.report()             // so does the other one, once reported
        s.up(slot: 0)
        s.up(slot: 1)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began, .began], [.cancelled, .cancelled], [.began], [.stationary, .began], [.ended, .ended]])
        let before = Set(frames[0].touches.map(\.id)), after = Set(frames[3].touches.map(\.id))
        #expect(before.isDisjoint(with: after))
        // The move inside the drop was ignored.
        #expect(frames[2].touches[0].physicalLocation == Point(x: 12, y: 10))
        #expect(lifecycleProblems(frames).isEmpty)
    }

    /// What the daemon feeds after an overflow: SYN_DROPPED, a SYN_REPORT closing the dropped window,
    /// libevdev's sync delta (the real state: the finger was lifted), then the tail the kernel still
    /// had buffered (positions of the lifted finger, its repeated lift filtered out by libevdev), then
    /// a new drag. The lifted finger must not come back, and the new drag must be a new touch.
    @Test func libevdevResyncDeltaIsTheTruthAfterADrop() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.syn(.synDropped)
        s.report()                          // closes the dropped window: touch 1 cancelled
        s.abs(.absMTSlot, 0)                // sync delta
        s.abs(.absMTTrackingID, -1)
        s.report()
        s.abs(.absMTPositionX, 150)         // buffered tail of the lost stroke
        s.report()
        s.abs(.absMTTrackingID, 2)          // a new drag on slot 0 (no ABS_MT_SLOT: still current)
        s.abs(.absMTPositionX, 300)
        s.abs(.absMTPositionY, 300)
        s.report()
        s.abs(.absMTPositionX, 400)
        s.report()
        s.abs(.absMTTrackingID, -1)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.cancelled], [.began], [.moved], [.ended]])
        #expect(frames[2].touches[0].physicalLocation == Point(x: 30, y: 30))
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func contactLiftedDuringADropDoesNotComeBack() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.syn(.synDropped)
        s.up(slot: 0)          // lost
        s.report()
        s.down(slot: 1, id: 2, x: 500, y: 500)
        s.report()
        s.up(slot: 1)
        s.report()
        let frames = s.run()
        // Slot 0 is never reported again, so it does not begin again.
        #expect(frames.map(\.phases) == [[.began], [.cancelled], [.began], [.ended]])
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func finishFlushesAPendingFrameThenCancels() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.move(slot: 0, x: 200, y: 100) // no SYN_REPORT: input ends mid-frame
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.moved], [.cancelled]])
        #expect(frames[1].touches[0].physicalLocation == Point(x: 20, y: 10))
    }

    @Test func cancelAllClosesEverythingAndIsNilWhenNothingIsOpen() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        var assembler = FrameAssembler(description: s.description, device: DeviceRef(id: 1, name: "d", kind: .touchscreen))
        var ids = TouchIDGenerator()
        for event in s.events { _ = assembler.feed(event, ids: &ids) }
        let frame = assembler.cancelAll(at: Timestamp(microseconds: 5))
        #expect(frame?.phases == [.cancelled])
        #expect(frame?.time == Timestamp(microseconds: 5))
        #expect(assembler.cancelAll(at: Timestamp(microseconds: 6)) == nil)
        #expect(assembler.openTouchCount == 0)
    }
}

@Suite struct PalmAndHoverTests {
    @Test func palmToolNeverBecomesATouch() {
        var s = EventScript.protocolB(extra: [.absMTToolType: AbsInfo(minimum: 0, maximum: 2)])
        s.abs(.absMTSlot, 0)
        s.abs(.absMTTrackingID, 1)
        s.abs(.absMTToolType, MTToolType.palm.rawValue)
        s.abs(.absMTPositionX, 100)
        s.abs(.absMTPositionY, 100)
        s.report()
        s.move(slot: 0, x: 200, y: 100)
        s.report()
        s.abs(.absMTToolType, MTToolType.finger.rawValue) // still the same contact: stays a palm
        s.report()
        s.up(slot: 0)
        s.report()
        #expect(s.run().isEmpty)
    }

    @Test func touchThatTurnsIntoAPalmIsCancelled() {
        var s = EventScript.protocolB(extra: [.absMTToolType: AbsInfo(minimum: 0, maximum: 2)])
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.report()
        s.abs(.absMTToolType, MTToolType.palm.rawValue)
        s.report()
        s.move(slot: 0, x: 300, y: 100)
        s.report()
        s.up(slot: 0)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.cancelled]])
    }

    @Test func oversizedContactIsAPalm() {
        // TOUCH_MAJOR at 10 units/mm: 400 units = 40 mm, above the 30 mm default.
        var s = EventScript.protocolB(extra: [.absMTTouchMajor: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)])
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.abs(.absMTTouchMajor, 400)
        s.down(slot: 1, id: 2, x: 500, y: 500)
        s.abs(.absMTTouchMajor, 80)
        s.report()
        s.abs(.absMTTouchMajor, 350) // slot 1 grows into a palm
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.cancelled]])
        #expect(frames[0].touches[0].majorAxis == 8)
    }

    @Test func hoverWithDistanceIsNotATouch() {
        var s = EventScript.protocolB(extra: [.absMTDistance: AbsInfo(minimum: 0, maximum: 10)])
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.abs(.absMTDistance, 3)
        s.report()
        s.move(slot: 0, x: 150, y: 100)
        s.report()
        s.abs(.absMTDistance, 0) // lands
        s.report()
        s.abs(.absMTDistance, 2) // lifts to hover
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.ended]])
        #expect(frames[0].touches[0].physicalLocation.x == 15)
    }
}

@Suite struct FingerCountTests {
    @Test func tripleTapOnTwoSlotsSynthesizesAThirdFingerAtTheCentroid() {
        var s = EventScript.protocolB(slots: 2, keys: [.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap])
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.down(slot: 1, id: 2, x: 300, y: 500)
        s.key(.btnToolTripleTap, true)
        s.report()
        s.move(slot: 0, x: 200, y: 100)
        s.report()
        s.up(slot: 1)
        s.key(.btnToolTripleTap, false)
        s.key(.btnToolFinger, true)
        s.report()
        s.up(slot: 0)
        s.key(.btnToolFinger, false)
        s.report()
        let frames = s.run()
        #expect(frames.count == 4)
        #expect(frames[0].activeFingerCount == 3)
        let synthesized = frames[0].touches.filter(\.isSynthesized)
        #expect(synthesized.count == 1)
        #expect(synthesized.first?.physicalLocation == Point(x: 20, y: 30))
        #expect(frames[1].touches.first(where: \.isSynthesized)?.physicalLocation == Point(x: 25, y: 30))
        #expect(frames[1].touches.first(where: \.isSynthesized)?.phase == .moved)
        // The tool count drops with the second finger: the synthesized finger ends with it.
        #expect(frames[2].touches.filter(\.isSynthesized).map(\.phase) == [.ended])
        #expect(frames[2].activeFingerCount == 1)
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func slotWithoutCoordinatesTakesTheLegacyPosition() {
        var s = EventScript.protocolB(slots: 2)
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.abs(.absMTSlot, 1)
        s.abs(.absMTTrackingID, 2) // no position for this slot, as Cypress trackpads do
        s.abs(.absX, 300)
        s.abs(.absY, 400)
        s.report()
        let frames = s.run()
        #expect(frames[0].touches.map(\.physicalLocation) == [Point(x: 10, y: 10), Point(x: 30, y: 40)])
    }

    @Test func toolCountWithinTheSlotCountAddsNothing() {
        var s = EventScript.protocolB(slots: 5, keys: [.btnTouch, .btnToolTripleTap])
        s.down(slot: 0, id: 1, x: 100, y: 100)
        s.key(.btnToolTripleTap, true)
        s.report()
        let frames = s.run()
        #expect(frames[0].touches.count == 1)
    }

    @Test func singleTouchPadWithDoubleTapCountsTwoFingers() {
        var s = EventScript.singleTouch()
        s.key(.btnTouch, true)
        s.key(.btnToolDoubleTap, true)
        s.abs(.absX, 100)
        s.abs(.absY, 100)
        s.report()
        s.key(.btnTouch, false)
        s.key(.btnToolDoubleTap, false)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.activeFingerCount) == [2, 0])
        #expect(frames[1].phases == [.ended, .ended])
    }
}

@Suite struct ProtocolATests {
    @Test func contactsAreMatchedToTheNearestPreviousContact() {
        var s = EventScript.protocolA()
        s.key(.btnTouch, true)
        s.contact(x: 100, y: 100)
        s.contact(x: 800, y: 800)
        s.report()
        // Reported in the other order: identities follow the positions.
        s.contact(x: 810, y: 800)
        s.contact(x: 105, y: 100)
        s.report()
        s.contact(x: 820, y: 800) // the finger at 100 lifted
        s.report()
        s.key(.btnTouch, false)
        s.syn(.synMTReport)
        s.report()
        let frames = s.run()
        #expect(frames.count == 4)
        let first = frames[0].touches
        let second = frames[1].touches
        #expect(second.first { $0.id == first[0].id }?.physicalLocation == Point(x: 10.5, y: 10))
        #expect(second.first { $0.id == first[1].id }?.physicalLocation == Point(x: 81, y: 80))
        #expect(frames[2].touch(first[0].id)?.phase == .ended)
        #expect(frames[2].touch(first[1].id)?.phase == .moved)
        #expect(frames[3].phases == [.ended])
        #expect(lifecycleProblems(frames).isEmpty)
    }

    @Test func trackingIdsWinOverDistance() {
        var s = EventScript.protocolA()
        s.key(.btnTouch, true)
        s.abs(.absMTTrackingID, 4)
        s.contact(x: 100, y: 100)
        s.abs(.absMTTrackingID, 9)
        s.contact(x: 200, y: 100)
        s.report()
        // The fingers jump past each other: nearest matching would swap them, the ids do not.
        s.abs(.absMTTrackingID, 9)
        s.contact(x: 110, y: 100)
        s.abs(.absMTTrackingID, 4)
        s.contact(x: 190, y: 100)
        s.report()
        let frames = s.run()
        let first = frames[0].touches
        #expect(frames[1].touch(first[0].id)?.physicalLocation == Point(x: 19, y: 10))
        #expect(frames[1].touch(first[1].id)?.physicalLocation == Point(x: 11, y: 10))
    }

    @Test func frameWithoutContactReportsWhileTouchIsDownKeepsTheContacts() {
        var s = EventScript.protocolA()
        s.key(.btnTouch, true)
        s.contact(x: 100, y: 100)
        s.report()
        s.abs(.absX, 100) // legacy only
        s.report()
        s.key(.btnTouch, false)
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.ended]])
    }
}

@Suite struct SingleTouchTests {
    @Test func buttonTouchMakesTheTouchAndPositionsMoveIt() {
        var s = EventScript.singleTouch()
        s.abs(.absX, 100)
        s.abs(.absY, 50)
        s.report()            // hover: BTN_TOUCH 0
        s.key(.btnTouch, true)
        s.abs(.absPressure, 50)
        s.report()
        s.abs(.absX, 200)
        s.report()
        s.key(.btnTouch, false)
        s.abs(.absX, 300)
        s.report()
        s.abs(.absX, 400)     // hover again
        s.report()
        let frames = s.run()
        #expect(frames.map(\.phases) == [[.began], [.moved], [.ended]])
        #expect(frames[0].touches[0].physicalLocation == Point(x: 10, y: 5))
        #expect(frames[0].touches[0].pressure == 0.5)
        #expect(frames[1].touches[0].physicalLocation == Point(x: 20, y: 5))
    }
}

@Suite struct InvariantTests {
    /// Deterministic pseudo-random streams with absurd values: nothing traps and every touch closes.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func everyTouchThatBeganIsClosed(seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let values: [Int32] = [-1, 0, 1, 2, 3, 5, 100, 999, 1000, 65535, 999_999, Int32.max, Int32.min, -7]
        let codes: [(EventType, EventCode)] = [
            (.abs, .absMTSlot), (.abs, .absMTTrackingID), (.abs, .absMTPositionX), (.abs, .absMTPositionY),
            (.abs, .absMTToolType), (.abs, .absMTDistance), (.abs, .absMTTouchMajor), (.abs, .absMTPressure),
            (.abs, .absX), (.abs, .absY), (.abs, .absPressure), (.key, .btnTouch), (.key, .btnToolFinger),
            (.key, .btnToolDoubleTap), (.key, .btnToolTripleTap), (.key, .btnToolQuintTap),
            (.syn, .synReport), (.syn, .synReport), (.syn, .synMTReport), (.syn, .synDropped),
        ]
        let extra: [EventCode: AbsInfo] = [
            .absMTTouchMajor: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            .absMTPressure: AbsInfo(minimum: 0, maximum: 255),
            .absMTToolType: AbsInfo(minimum: 0, maximum: 2),
            .absMTDistance: AbsInfo(minimum: 0, maximum: 10),
        ]
        for var script in [EventScript.protocolB(slots: 3, extra: extra, keys: [.btnTouch, .btnToolTripleTap]),
                           EventScript.protocolA(), EventScript.singleTouch()] {
            for _ in 0..<3000 {
                let (type, code) = codes[Int(next() % UInt64(codes.count))]
                let value = values[Int(next() % UInt64(values.count))]
                script.events.append(RawEvent(time: Timestamp(microseconds: script.now), type: type, code: code, value: value))
                script.now += Int64(next() % 5000)
            }
            let frames = script.run()
            #expect(lifecycleProblems(frames).isEmpty, "\(script.description.name) seed \(seed)")
            #expect(frames.contains { $0.touches.contains { $0.phase == .began } }, "the stream made touches")
        }
    }
}
