import Testing
import GestureCore
import GestureConfig
@testable import GestureDaemon
import GesturePosix
import GestureProtocol

@Suite struct ProtocolTests {
    static let pan = GestureEvent(gesture: "two-finger-pan", kind: .pan, state: .changed, time: .zero,
                                  device: "pad", region: "screen", fingers: 2)

    @Test func helloLineIsTheDocumentedOne() {
        #expect(DaemonVersion.helloLine
            == #"{"type":"hello","protocol":1,"version":"\#(DaemonVersion.version)","commit":"\#(DaemonVersion.commit)"}"#)
    }

    @Test func parsesASubscribeRequest() throws {
        let r = try ClientRequest.parse(#"{"request":"subscribe","gestures":["a"],"kinds":["pan"],"touches":["*"]}"#).get()
        #expect(r.request == "subscribe")
        #expect(r.gestures == ["a"])
        #expect(r.kinds == ["pan"])
        #expect(r.touches == ["*"])
    }

    @Test(arguments: ["garbage", "{}", "[1,2]", #"{"request":5}"#, #"{"request":"hit-test","x":"one"}"#, "{\"request\":"])
    func malformedRequestsSayWhatWasExpected(_ line: String) {
        guard case .failure(let error) = ClientRequest.parse(line) else {
            Issue.record("\(line) parsed")
            return
        }
        #expect(error.message.contains("request") || error.message.contains("type"))
    }

    @Test func emptyFilterMatchesEveryGestureButNoTouch() {
        let filter = SubscriptionFilter()
        #expect(filter.matches(.gesture(Self.pan)))
        let touch = TouchEvent(phase: .began, id: TouchID(1), location: .zero, region: "screen", tapCount: 1,
                               time: .zero, device: "pad")
        #expect(!filter.matches(.touch(touch)))
    }

    @Test func filterDimensionsAllApply() {
        #expect(SubscriptionFilter(gestures: ["two-finger-pan"]).matches(.gesture(Self.pan)))
        #expect(!SubscriptionFilter(gestures: ["tap"]).matches(.gesture(Self.pan)))
        #expect(SubscriptionFilter(kinds: [.pan, .tap]).matches(.gesture(Self.pan)))
        #expect(!SubscriptionFilter(kinds: [.pinch]).matches(.gesture(Self.pan)))
        #expect(!SubscriptionFilter(regions: ["button"]).matches(.gesture(Self.pan)))
        #expect(SubscriptionFilter(regions: ["screen"], devices: ["pad"]).matches(.gesture(Self.pan)))
        #expect(!SubscriptionFilter(gestures: ["two-finger-pan"], devices: ["screen0"]).matches(.gesture(Self.pan)))
    }

    /// The flag the hub decides most gesture lines on follows every filter that can refuse a
    /// gesture (and only those), as the filter is built and as it is changed afterwards.
    @Test func takesEveryGestureFollowsTheGestureFilters() {
        #expect(SubscriptionFilter().takesEveryGesture)
        #expect(SubscriptionFilter(touchRegions: ["*"]).takesEveryGesture)
        #expect(!SubscriptionFilter(gestures: ["tap"]).takesEveryGesture)
        #expect(!SubscriptionFilter(kinds: [.tap]).takesEveryGesture)
        #expect(!SubscriptionFilter(regions: ["screen"]).takesEveryGesture)
        #expect(!SubscriptionFilter(devices: ["pad"]).takesEveryGesture)
        var filter = SubscriptionFilter()
        let shared = filter
        filter.regions = ["button"]
        #expect(!filter.takesEveryGesture && !filter.matches(.gesture(Self.pan)))
        #expect(shared.takesEveryGesture && shared.matches(.gesture(Self.pan)))
        filter.regions = []
        filter.devices = ["screen0"]
        #expect(!filter.takesEveryGesture && !filter.matches(.gesture(Self.pan)))
        filter.devices = []
        filter.kinds = [.pinch]
        #expect(!filter.takesEveryGesture && !filter.matches(.gesture(Self.pan)))
        filter.kinds = []
        filter.gestures = ["tap"]
        #expect(!filter.takesEveryGesture && !filter.matches(.gesture(Self.pan)))
        filter.gestures = []
        filter.touchRegions = ["button"]
        #expect(filter.takesEveryGesture && filter.matches(.gesture(Self.pan)))
    }

    @Test func touchStreamsFollowTheirRegions() {
        let inButton = TouchEvent(phase: .moved, id: TouchID(3), location: .zero, region: "button", tapCount: 1,
                                  time: .zero, device: "pad")
        #expect(SubscriptionFilter(touchRegions: ["button"]).matches(.touch(inButton)))
        #expect(!SubscriptionFilter(touchRegions: ["slider"]).matches(.touch(inButton)))
        #expect(SubscriptionFilter(touchRegions: ["*"]).matches(.touch(inButton)))
        #expect(!SubscriptionFilter(devices: ["other"], touchRegions: ["*"]).matches(.touch(inButton)))
    }

    @Test func explainLinesFollowGestureAndRegionFilters() {
        let e = ExplainEvent(gesture: "tap", region: "screen", from: .possible, to: .failed, time: .zero, reason: "moved")
        #expect(SubscriptionFilter().matches(.explain(e)))
        #expect(SubscriptionFilter(gestures: ["tap"]).matches(.explain(e)))
        #expect(!SubscriptionFilter(gestures: ["pan"]).matches(.explain(e)))
    }

    @Test func explainKindFilterAppliesWhenTheKindIsKnown() {
        let e = ExplainEvent(gesture: "tap", region: "screen", from: .possible, to: .failed, time: .zero, reason: "moved")
        #expect(SubscriptionFilter(kinds: [.tap]).matchesExplain(e, kind: .tap))
        #expect(!SubscriptionFilter(kinds: [.pan]).matchesExplain(e, kind: .tap))
        #expect(SubscriptionFilter(kinds: [.pan]).matchesExplain(e, kind: nil))
    }

    @Test func requestIdsAreEchoed() throws {
        let numbered = try ClientRequest.parse(#"{"request":"status","id":42}"#).get()
        #expect(ProtocolLine.tagged(ProtocolLine.response("status"), id: numbered.id)
            == #"{"type":"response","request":"status","ok":true,"id":42}"#)
        let named = try ClientRequest.parse(#"{"request":"status","id":"a\"b"}"#).get()
        #expect(ProtocolLine.tagged(ProtocolLine.error("x"), id: named.id) == #"{"type":"error","message":"x","id":"a\"b"}"#)
        #expect(ProtocolLine.tagged("{}", id: nil) == "{}")
        guard case .failure = ClientRequest.parse(#"{"request":"status","id":[1]}"#) else {
            Issue.record("an array id parsed")
            return
        }
    }

    @Test func unknownKindIsRefused() {
        var request = ClientRequest(request: "subscribe")
        request.kinds = ["pan", "wiggle"]
        #expect(throws: ProtocolError.self) { try SubscriptionFilter(request) }
    }

    @Test func errorLinesRoundTrip() {
        let line = ProtocolLine.error("bad \"thing\"\nsecond line", request: "reload")
        #expect(ProtocolLine.message(ofError: line) == "bad \"thing\"\nsecond line")
        #expect(ProtocolLine.message(ofError: ProtocolLine.response("status")) == nil)
    }
}

@Suite struct DeviceMatchTests {
    static let screen = DeviceDescription(name: "ELAN Touchscreen", vendor: 0x04f3, product: 0x2a1c,
                                          properties: [.direct], path: "/dev/input/event7")

    @Test func everyGivenFieldMustMatch() {
        let d = Self.screen
        #expect(DeviceMatch().matches(d, kind: .touchscreen, path: d.path))
        #expect(DeviceMatch(kind: .touchscreen, nameGlob: "ELAN*").matches(d, kind: .touchscreen, path: d.path))
        #expect(!DeviceMatch(kind: .touchpad).matches(d, kind: .touchscreen, path: d.path))
        #expect(!DeviceMatch(nameGlob: "Wacom*").matches(d, kind: .touchscreen, path: d.path))
        #expect(DeviceMatch(vendor: 0x04f3, product: 0x2a1c).matches(d, kind: .touchscreen, path: d.path))
        #expect(!DeviceMatch(vendor: 0x04f3, product: 0x0001).matches(d, kind: .touchscreen, path: d.path))
        #expect(DeviceMatch(path: "/dev/input/event7").matches(d, kind: .touchscreen, path: d.path))
        #expect(DeviceMatch(path: "/dev/input/event*").matches(d, kind: .touchscreen, path: d.path))
        #expect(!DeviceMatch(path: "/dev/input/event8").matches(d, kind: .touchscreen, path: d.path))
        // A path rule needs a known path: none given and none in the description.
        var unknown = d
        unknown.path = nil
        #expect(!DeviceMatch(path: "/dev/input/event7").matches(unknown, kind: .touchscreen, path: nil))
        // With no path given, the description's own path counts.
        #expect(DeviceMatch(path: "/dev/input/event7").matches(d, kind: .touchscreen))
    }

    @Test func ignoreWinsAndDefaultsTakeTouchDevicesOnly() {
        let d = Self.screen
        #expect(DeviceSelection().selects(d, kind: .touchscreen, path: d.path))
        #expect(!DeviceSelection().selects(d, kind: .other, path: d.path))
        #expect(!DeviceSelection(ignore: [DeviceMatch(nameGlob: "ELAN*")]).selects(d, kind: .touchscreen, path: d.path))
        #expect(!DeviceSelection(include: [DeviceMatch(kind: .touchpad)]).selects(d, kind: .touchscreen, path: d.path))
        #expect(DeviceSelection(include: [DeviceMatch(kind: .touchpad), DeviceMatch(vendor: 0x04f3)])
            .selects(d, kind: .touchscreen, path: d.path))
    }

    @Test func surfaceSizeFallsBackToTheSensingAreaInMM() {
        var d = Self.screen
        d.absInfo[.absMTPositionX] = AbsInfo(minimum: 0, maximum: 3000, resolution: 10)
        d.absInfo[.absMTPositionY] = AbsInfo(minimum: 0, maximum: 2000, resolution: 0)
        let size = SurfaceConfiguration().size(for: d)
        #expect(size == Point(x: 300, y: 2000 / SurfaceConfiguration.defaultUnitsPerMM))
        #expect(SurfaceConfiguration(size: Point(x: 1920, y: 1080)).size(for: d) == Point(x: 1920, y: 1080))
        #expect(SurfaceConfiguration(rotation: .clockwise90).size(for: d) == Point(x: size.y, y: size.x))
    }
}
