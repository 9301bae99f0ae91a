import GestureCore
import Testing

/// Names kept once per process: equal strings are one value, whichever thread interns them, and a
/// name interned again does not grow the table.
@Suite struct InternedStringTests {
    @Test func equalStringsAreOneValue() {
        let a = InternedString("two-finger-pan")
        let b = InternedString(String("two-finger-") + "pan")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.string == "two-finger-pan")
        #expect(a != InternedString("two-finger-pinch"))
        #expect(InternedString("") == .empty)
        #expect(InternedString("a") < InternedString("b"))
        let long = String(repeating: "SynPS/2 Synaptics TouchPad ", count: 4)
        #expect(InternedString(long).string == long)
    }

    /// "N:rest" (a client's qualified id) is kept as N and the interned rest: the same ids of any
    /// client share one entry, and every name reads back exactly as it was given.
    @Test func numberedNamesShareTheirRestAndReadBackExactly() {
        let names = ["7:button", "12:button", "0:button", "button", "07:button", "-1:button", "1234567890:button",
                     "3:", ":x", "3:4:deep", "x:y", "٣:button", "4294967295:z", "999999999:max"]
        for name in names { #expect(InternedString(name).string == name, "\(name)") }
        #expect(InternedString("7:button") != InternedString("12:button"))
        #expect(InternedString("7:button") != InternedString("button"))
        #expect(InternedString("7:button") == InternedString("7:" + "button"))
        #expect(InternedString.unseen(["7:button", "8:button", "button"]) == 0)
        // One entry, "numbered-names-slider", for 1,000 clients; none for the qualified names.
        for client in 1...1000 { _ = InternedString("\(client):numbered-names-slider") }
        #expect(InternedString.keeps("numbered-names-slider"))
        #expect(!(1...1000).contains { InternedString.keeps("\($0):numbered-names-slider") })
        #expect(InternedString.keeps("07:button") && !InternedString.keeps("7:button"))
        #expect(InternedString.unseen(["1:numbered-names-never-seen", "2:numbered-names-never-seen"]) == 1)
    }

    /// Interning a name again gives the value it gave the first time, and the table keeps the name
    /// once. (The table is one per process and other tests intern names in parallel, so this looks
    /// at the names themselves, not at how many the table holds.)
    @Test func internedAgainItIsTheSameEntry() {
        let names = (0..<50).map { "interned-again-\($0)" }
        let first = names.map { InternedString($0) }
        for _ in 0..<20 { #expect(names.map { InternedString($0) } == first) }
        #expect(DeviceRef(id: 1, name: names[0], kind: .touchpad).internedName == first[0])
        #expect(names.allSatisfy { InternedString.keeps($0) })
        #expect(InternedString.unseen(names) == 0)
    }

    @Test func threadsInterningTheSameNamesGetTheSameValues() async {
        let names = (0..<64).map { "threads-\($0 % 16)" }
        let seen = await withTaskGroup(of: [InternedString].self) { group in
            for _ in 0..<8 { group.addTask { names.map { InternedString($0) } } }
            var all: [[InternedString]] = []
            for await values in group { all.append(values) }
            return all
        }
        for values in seen { #expect(values == seen[0]) }
        #expect(Set(seen[0]).count == 16)
    }

    /// The string accessors of events and devices read and write the interned names.
    @Test func eventsAndDevicesKeepTheirNamesInterned() {
        var event = GestureEvent(gesture: "tap", kind: .tap, state: .recognized, time: .zero, device: "pad",
                                 region: "screen", fingers: 1)
        #expect(event.gestureName == InternedString("tap"))
        #expect(event.device == "pad" && event.region == "screen")
        event.gesture = "double-tap"
        event.region = "button"
        #expect(event.gestureName == InternedString("double-tap") && event.gesture == "double-tap")
        #expect(event.regionName == InternedString("button"))
        #expect(event == GestureEvent(gesture: "double-tap", kind: .tap, state: .recognized, time: .zero,
                                      device: "pad", region: "button", fingers: 1))
        var device = DeviceRef(id: 3, name: "pad", kind: .touchpad)
        device.name = "screen0"
        #expect(device.internedName == InternedString("screen0") && device.name == "screen0")
    }
}
