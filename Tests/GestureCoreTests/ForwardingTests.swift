import Foundation
@testable import GestureCore
import Testing

/// What the desktop gets through a forwarded device's clone (docs/forwarding.md), on scripted streams.
@Suite struct ForwardingTests {
    /// A pipeline with one forwarded device; returns the engine's outputs and the clone's events.
    static func run(_ script: EventScript, kind: DeviceKind = .touchscreen, recognizers: [RecognizerSpec],
                    explains: Bool = false, boundsHolds: Bool = true) -> (outputs: [EngineOutput], clone: [RawEvent]) {
        var engine = GestureEngine(configuration: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: recognizers))
        engine.explains = explains
        engine.boundsHolds = boundsHolds
        var pipeline = GesturePipeline(engine: engine)
        pipeline.addDevice(script.description, ref: DeviceRef(id: 1, name: script.description.name, kind: kind),
                           surface: .init())
        let started = pipeline.startForwarding(device: 1)
        #expect(started)
        var outputs: [EngineOutput] = []
        var clone: [RawEvent] = []
        for event in script.events {
            outputs += pipeline.feed(event, device: 1)
            clone += pipeline.takeForwarded(device: 1)
        }
        let end = Timestamp(microseconds: script.now + 2_000_000)
        outputs += pipeline.advance(to: end)
        clone += pipeline.takeForwarded(device: 1)
        return (outputs, clone)
    }

    static func spec(_ id: String, _ kind: RecognizerKind, claims: Bool = true, holds: ForwardingHold = .never,
                     _ configure: (inout RecognizerParameters) -> Void = { _ in }) -> RecognizerSpec {
        var p = RecognizerParameters()
        configure(&p)
        var s = RecognizerSpec(id: id, kind: kind, region: "screen", parameters: p)
        s.claimsForwarded = claims
        s.holdsForwarded = holds
        return s
    }

    /// A one-finger drag from (x, y), `steps` moves of `dx` each 10 ms apart, tracking id `id` in `slot`.
    static func drag(_ s: inout EventScript, slot: Int32 = 0, id: Int32, x: Int32, y: Int32, dx: Int32, steps: Int) {
        s.down(slot: slot, id: id, x: x, y: y)
        s.key(.btnTouch, true)
        s.report()
        for k in 1...steps {
            s.move(slot: slot, x: x + dx * Int32(k), y: y)
            s.report()
        }
        s.up(slot: slot)
        s.key(.btnTouch, false)
        s.report()
    }

    /// One finger resting at the left edge (x 10) for a second, then lifted.
    static func restingAtTheEdge() -> EventScript {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 5, x: 10, y: 500)
        s.key(.btnTouch, true)
        s.report(advancing: 1000)
        s.up(slot: 0)
        s.key(.btnTouch, false)
        s.report()
        return s
    }

    @Test func aTouchNoGestureTakesGoesThroughUnchanged() {
        var s = EventScript.protocolB()
        Self.drag(&s, id: 5, x: 500, y: 500, dx: 20, steps: 8)
        let r = Self.run(s, recognizers: [Self.spec("right", .swipe, claims: false)])
        #expect(r.clone == s.events)
    }

    @Test func aClaimedEdgePanForwardsNoneOfItsTouches() {
        var s = EventScript.protocolB()
        Self.drag(&s, id: 5, x: 10, y: 500, dx: 40, steps: 8)
        Self.drag(&s, id: 6, x: 500, y: 500, dx: 40, steps: 8)
        let r = Self.run(s, recognizers: [Self.spec("edge-left", .edgePan, holds: .always)], explains: true)
        let touches = CloneReader(r.clone).touches
        // The edge swipe never reaches the desktop; the drag from the middle does, whole.
        #expect(touches.map(\.trackingID) == [6])
        #expect(touches.first?.lifted == true)
        #expect(touches.first?.positions.count == 9)
        #expect(r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "edge-left" && g.state == .began } else { false } })
        let explains = r.outputs.compactMap { if case .explain(let e) = $0 { e.reason } else { nil } }
        #expect(explains.contains("touch 1 held: edge-left may still take it"))
        #expect(explains.contains("touch 1 cancelled, never sent to the desktop: edge-left began"))
        #expect(CloneReader(r.clone).problems.isEmpty, "\(CloneReader(r.clone).problems)")
    }

    /// No endless holds: a finger resting in an edge pan's zone gives the edge pan nothing to decide
    /// on; it holds the touch back from the desktop until its settling (300 ms) is over and 150 ms
    /// more, then gives way, and the desktop gets the touch while it is still down.
    @Test func aTouchAnUndecidedGestureHoldsReachesTheDesktopAfterTheHoldLimit() {
        let r = Self.run(Self.restingAtTheEdge(), recognizers: [Self.spec("edge-left", .edgePan, holds: .always)], explains: true)
        let verdicts = r.outputs.compactMap { if case .forwarding(let f) = $0 { f } else { nil } }
        #expect(verdicts.map(\.verdict) == [.hold, .release])
        let landed = Timestamp(microseconds: 1_000_000)
        #expect(verdicts.last.map { $0.time.milliseconds(since: landed) } == 450)
        let explains = r.outputs.compactMap { if case .explain(let e) = $0 { e.reason } else { nil } }
        #expect(explains.contains("undecided after holding touch 1 from the desktop for 150 ms: gives way, the desktop gets it"))
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.touches.map(\.trackingID) == [5])
        #expect(reader.touches.first?.lifted == true)
        #expect(!r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "edge-left" } else { false } })
    }

    /// With holds unbounded (before issue 56), the same touch is held until it lifts.
    @Test func anUnboundedHoldLastsTheWholeTouch() {
        let r = Self.run(Self.restingAtTheEdge(), recognizers: [Self.spec("edge-left", .edgePan, holds: .always)], boundsHolds: false)
        let released = r.outputs.compactMap { if case .forwarding(let f) = $0, f.verdict == .release { f.time } else { nil } }
        #expect(released.map { $0.milliseconds(since: Timestamp(microseconds: 1_000_000)) } == [1000])
    }

    /// No endless holds on a touchpad: two fingers turning about their middle (a pivot) give a bound
    /// pinch nothing to decide on (their span and centre stay), so it holds the second finger back;
    /// once libinput would have decided the fingers (both moved 1.5 mm: the desktop would be
    /// scrolling or pinching) it has 150 ms, then gives way and the desktop gets the second finger
    /// while the fingers are still turning.
    @Test func turningTouchpadFingersAnUndecidedPinchHoldsReachTheDesktopAfterTheHoldLimit() {
        var s = EventScript.protocolB(slots: 5, keys: [.btnTouch, .btnToolFinger, .btnToolDoubleTap])
        s.down(slot: 0, id: 30, x: 400, y: 500); s.key(.btnTouch, true); s.key(.btnToolFinger, true); s.report()
        s.down(slot: 1, id: 31, x: 600, y: 500); s.key(.btnToolFinger, false); s.key(.btnToolDoubleTap, true); s.report()
        var decided: Int64?
        for k in 1...100 {  // a quarter turn in a second, 10 mm from the middle
            let a = Double(k) * Double.pi / 200
            for f in 0..<2 {
                let side = f == 0 ? -1.0 : 1.0
                s.move(slot: Int32(f), x: 500 + Int32((side * 100 * cos(a)).rounded()), y: 500 + Int32((side * 100 * sin(a)).rounded()))
            }
            let each = 2 * 10 * sin(a / 2)  // how far each finger moved, mm (10 units a mm)
            if decided == nil && each >= TouchpadPairClassifier.minimumMove(fingers: 2) { decided = s.now }
            s.report()
        }
        for f in 0..<2 { s.up(slot: Int32(f)) }
        s.key(.btnTouch, false); s.key(.btnToolDoubleTap, false); s.report()
        let pinch = Self.spec("pinch", .pinch, holds: .touchpadFingerCount(2))
        let r = Self.run(s, kind: .touchpad, recognizers: [pinch], explains: true)
        let verdicts = r.outputs.compactMap { if case .forwarding(let f) = $0 { f } else { nil } }
        // The first finger stops on the clone while the second is held, and moves on once it is released.
        #expect(verdicts.map(\.verdict) == [.hold, .pause, .release, .resume])
        // Released in the frame 150 ms after the one where both fingers had moved 1.5 mm, before the lift.
        let moved = Timestamp(microseconds: decided ?? 0)
        #expect(verdicts.first { $0.verdict == .release }.map { $0.time.milliseconds(since: moved) } == 150)
        let explains = r.outputs.compactMap { if case .explain(let e) = $0 { e.reason } else { nil } }
        #expect(explains.contains("undecided after holding touch 2 from the desktop for 150 ms: gives way, the desktop gets it"))
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.touches.map(\.trackingID).sorted() == [30, 31])
    }

    @Test func aClaimingPanLiftsItsTouchOnTheCloneWhenItBegins() {
        var s = EventScript.protocolB()
        Self.drag(&s, id: 5, x: 500, y: 500, dx: 10, steps: 8)
        let r = Self.run(s, recognizers: [Self.spec("pan", .pan)])
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.touches.map(\.trackingID) == [5])
        // Passed at once, then lifted when the pan began: in the frame that reached 3 mm, which the
        // desktop never gets (the landing and two 1 mm moves do).
        #expect(reader.touches[0].positions == [500, 510, 520])
        #expect(reader.touches[0].lifted)
        let withdrawn = r.outputs.compactMap { if case .forwarding(let f) = $0 { f.verdict } else { nil } }
        #expect(withdrawn == [.withdraw])
        #expect(!reader.buttonTouchDown)
    }

    @Test func aHeldDoubleTapThatFailsForwardsTheTouchesLateCompleteAndInOrder() {
        var s = EventScript.protocolB()
        // One tap, then nothing: the double tap fails when the next tap is too late.
        s.down(slot: 0, id: 9, x: 500, y: 500)
        s.key(.btnTouch, true)
        s.report(advancing: 30)
        s.move(slot: 0, x: 502, y: 500)
        s.report(advancing: 30)
        s.up(slot: 0)
        s.key(.btnTouch, false)
        s.report()
        let r = Self.run(s, recognizers: [Self.spec("double", .tap, holds: .always) { $0.taps = 2 }])
        let verdicts = r.outputs.compactMap { if case .forwarding(let f) = $0 { f.verdict } else { nil } }
        #expect(verdicts == [.hold, .release])
        // Nothing reached the clone before the double tap failed; then all of it, in order.
        let slotEvents = r.clone.filter { $0.type == .abs && $0.code != .absX && $0.code != .absY }
        let sourceSlotEvents = s.events.filter { $0.type == .abs && $0.code != .absMTSlot }
        #expect(slotEvents.map(\.code) == sourceSlotEvents.map(\.code))
        #expect(slotEvents.map(\.value) == sourceSlotEvents.map(\.value))
        let release = r.outputs.compactMap { if case .forwarding(let f) = $0, f.verdict == .release { f.time } else { nil } }
        #expect(r.clone.allSatisfy { $0.time >= s.events[0].time })
        #expect(release.count == 1)
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.touches.count == 1 && reader.touches[0].lifted && reader.touches[0].positions.count == 2)
    }

    /// A touchpad three-finger swipe, fingers landing one by one (20 ms apart), then 30 mm to the right.
    static func threeFingerSwipe() -> EventScript {
        var s = EventScript.protocolB(slots: 5, keys: [.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap])
        let tools: [EventCode] = [.btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap]
        for f in 0..<3 {
            s.down(slot: Int32(f), id: Int32(20 + f), x: 300 + Int32(f) * 150, y: 500)
            if f == 0 { s.key(.btnTouch, true) } else { s.key(tools[f - 1], false) }
            s.key(tools[f], true)
            s.report(advancing: 20)
        }
        for k in 1...15 {
            for f in 0..<3 { s.move(slot: Int32(f), x: 300 + Int32(f) * 150 + Int32(k) * 20, y: 500) }
            s.report()
        }
        for f in 0..<3 { s.up(slot: Int32(f)) }
        s.key(.btnTouch, false)
        s.key(.btnToolTripleTap, false)
        s.report()
        return s
    }

    @Test func aBoundThreeFingerTouchpadSwipeForwardsNoThreeFingerContact() {
        let s = Self.threeFingerSwipe()
        let swipe = Self.spec("swipe-3", .swipe, holds: .touchpadFingerCount(3)) { $0.fingers = 3 }
        let r = Self.run(s, kind: .touchpad, recognizers: [swipe], explains: true)
        #expect(r.outputs.contains { if case .gesture(let g) = $0 { g.gesture == "swipe-3" } else { false } })
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.mostDown < 3)
        #expect(reader.mostTool < 3)
        #expect(!reader.touches.contains { $0.trackingID == 22 })
        let explains = r.outputs.compactMap { if case .explain(let e) = $0 { e.reason } else { nil } }
        #expect(explains.contains("touch 3 held: it makes 3 fingers, and swipe-3 may still take them"))
        // On a touchpad a swipe is continuous: it takes the touches when it begins.
        #expect(explains.contains("touches 1–2 stopped on the clone (still down): touch 3 makes 3 fingers, and swipe-3 may still take them"))
        #expect(explains.contains("touches 1–2 lifted on the clone: swipe-3 began"))
        #expect(explains.contains("touch 3 cancelled, never sent to the desktop: swipe-3 began"))
        // The first two fingers stopped on the clone in the frame the third landed: they were still
        // landing then, so the clone shows each at its landing place only, then lifted.
        #expect(reader.touches.filter { $0.trackingID == 20 || $0.trackingID == 21 }.map(\.positions) == [[300], [450]])
    }

    /// Two fingers scroll right, a third lands (it stays where it lands), the fingers go on right;
    /// a bound three-finger swipe up fails.
    static func scrollWithRestingThirdFinger() -> EventScript {
        var s = EventScript.protocolB(slots: 5, keys: [.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap])
        s.down(slot: 0, id: 20, x: 300, y: 500); s.key(.btnTouch, true); s.key(.btnToolFinger, true); s.report(advancing: 10)
        s.down(slot: 1, id: 21, x: 450, y: 500); s.key(.btnToolFinger, false); s.key(.btnToolDoubleTap, true); s.report(advancing: 10)
        for k in 1...10 {  // x 300 → 400 and 450 → 550
            for f in 0..<2 { s.move(slot: Int32(f), x: 300 + Int32(f) * 150 + Int32(k) * 10, y: 500) }
            s.report()
        }
        s.down(slot: 2, id: 22, x: 800, y: 500); s.key(.btnToolDoubleTap, false); s.key(.btnToolTripleTap, true)
        for f in 0..<2 { s.move(slot: Int32(f), x: 300 + Int32(f) * 150 + 110, y: 500) }
        s.report()
        for k in 12...40 {
            for f in 0..<2 { s.move(slot: Int32(f), x: 300 + Int32(f) * 150 + Int32(k) * 10, y: 500) }
            s.report()
        }
        for f in 0..<3 { s.up(slot: Int32(f)) }
        s.key(.btnTouch, false)
        s.key(.btnToolTripleTap, false)
        s.report()
        return s
    }

    @Test func fingersPausedForAFailedSwipeMoveOnFromWhereTheyStoppedWithoutAJump() {
        let s = Self.scrollWithRestingThirdFinger()
        let swipe = Self.spec("swipe-3", .swipe, holds: .touchpadFingerCount(3)) { $0.fingers = 3; $0.directions = [.up] }
        let r = Self.run(s, kind: .touchpad, recognizers: [swipe], explains: true)
        let verdicts = r.outputs.compactMap { if case .forwarding(let f) = $0 { f } else { nil } }
        #expect(verdicts.map(\.verdict) == [.hold, .pause, .pause, .release, .resume, .resume])
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        let touch1: [Int32] = reader.touches.filter { $0.trackingID == 20 }.first.map { $0.positions } ?? []
        // Up to 400, still from the third finger's frame (410 on the source), then on with every
        // step of 10 the source makes, from 400: what it moved while paused is not sent.
        let stop = touch1.firstIndex(of: 400) ?? -1
        #expect(stop == 10)
        let after = Array(touch1.dropFirst(stop + 1))
        #expect(!after.isEmpty)
        #expect(zip([400] + after, after).allSatisfy { $1 - $0 == 10 }, "\(touch1)")
        let end = 300 + 400  // where finger 1 ends on the source
        let pausedFor = end - 400 - 10 * after.count
        #expect(pausedFor > 10, "\(touch1)")
        #expect(touch1.last == Int32(end - pausedFor))
        // The resting finger reaches the clone when the swipe fails; all three lift.
        #expect(reader.touches.contains { $0.trackingID == 22 && $0.lifted })
        #expect(reader.touches.allSatisfy { $0.lifted })
        let explains = r.outputs.compactMap { if case .explain(let e) = $0 { e.reason } else { nil } }
        #expect(explains.contains("touches 1–2 move again on the clone: swipe-3 failed"))
    }

    @Test func aTwoFingerScrollWhereOnlyAThreeFingerSwipeIsBoundGoesThroughUnchanged() {
        var s = EventScript.protocolB(slots: 5, keys: [.btnTouch, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap])
        s.down(slot: 0, id: 1, x: 400, y: 300)
        s.key(.btnTouch, true)
        s.key(.btnToolFinger, true)
        s.report(advancing: 15)
        s.down(slot: 1, id: 2, x: 600, y: 300)
        s.key(.btnToolFinger, false)
        s.key(.btnToolDoubleTap, true)
        s.report()
        for k in 1...20 {
            s.move(slot: 0, x: 400, y: 300 + Int32(k) * 15)
            s.move(slot: 1, x: 600, y: 300 + Int32(k) * 15)
            s.report()
        }
        s.up(slot: 0)
        s.up(slot: 1)
        s.key(.btnTouch, false)
        s.key(.btnToolDoubleTap, false)
        s.report()
        let swipe = Self.spec("swipe-3", .swipe, holds: .touchpadFingerCount(3)) { $0.fingers = 3 }
        let r = Self.run(s, kind: .touchpad, recognizers: [swipe])
        #expect(r.clone == s.events)
    }

    @Test func synDroppedLiftsEveryTouchOnTheClone() {
        var s = EventScript.protocolB()
        s.down(slot: 0, id: 3, x: 500, y: 500)
        s.key(.btnTouch, true)
        s.report()
        s.syn(.synDropped)
        s.move(slot: 0, x: 520, y: 500)
        s.report()
        let r = Self.run(s, recognizers: [])
        let reader = CloneReader(r.clone)
        #expect(reader.problems.isEmpty, "\(reader.problems)")
        #expect(reader.touches.count == 1 && reader.touches[0].lifted)
        #expect(!reader.buttonTouchDown)
    }

    @Test func touchListsJoinRuns() {
        #expect(EngineLane.touchList([3, 1, 2, 5].map { TouchID($0) }) == "1–3, 5")
    }
}

/// What a reader of the clone sees: its touches (protocol B) and whether the keys agree with them.
struct CloneReader {
    struct Touch {
        var trackingID: Int32
        var positions: [Int32] = []
        var lifted = false
    }
    var touches: [Touch] = []
    var problems: [String] = []
    var buttonTouchDown = false
    var mostDown = 0
    var mostTool = 0

    init(_ events: [RawEvent]) {
        var slot = 0
        var active: [Int: Int] = [:]
        var tool = 0
        var sawX = false
        for e in events {
            switch (e.type, e.code) {
            case (.abs, .absMTSlot): slot = Int(e.value)
            case (.abs, .absMTTrackingID):
                if e.value >= 0 {
                    if active[slot] != nil { problems.append("slot \(slot) reused while down") }
                    active[slot] = touches.count
                    touches.append(Touch(trackingID: e.value))
                } else if let t = active.removeValue(forKey: slot) {
                    touches[t].lifted = true
                } else {
                    problems.append("slot \(slot) lifted while empty")
                }
            case (.abs, .absMTPositionX):
                sawX = true
                if let t = active[slot] { touches[t].positions.append(e.value) } else { problems.append("position in empty slot \(slot)") }
            case (.key, .btnTouch): buttonTouchDown = e.value != 0
            case (.key, let c) where FingerCountTracker.fingers(for: c) != nil:
                if e.value != 0 { tool = FingerCountTracker.fingers(for: c)! } else if tool == FingerCountTracker.fingers(for: c)! { tool = 0 }
            case (.syn, .synReport):
                mostDown = max(mostDown, active.count)
                mostTool = max(mostTool, tool)
                if buttonTouchDown != !active.isEmpty { problems.append("BTN_TOUCH \(buttonTouchDown) with \(active.count) down") }
            default: break
            }
        }
        _ = sawX
        if !active.isEmpty { problems.append("\(active.count) left down") }
    }
}
