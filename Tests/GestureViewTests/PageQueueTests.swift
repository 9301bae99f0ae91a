import Testing
@testable import GestureView

/// A page's bounded queue (docs/view.md, "Cost"): once it is full a slow page drops further lines and is
/// told how many. The server itself is tested as the real `gesturectl-view` process in
/// GestureDaemonTests (ViewProcessTests).
struct PageQueueTests {
    @Test func aSlowPageDropsAndIsToldHowMany() async throws {
        let queue = PageQueue(limit: 4)
        for i in 0..<10 { queue.push("line \(i)") }
        var got: [String] = []
        for _ in 0..<5 { got.append(await queue.next() ?? "nil") }
        #expect(got == ["line 0", "line 1", "line 2", "line 3", #"{"type":"dropped","count":6,"by":"view"}"#])
        queue.push("line 10")
        #expect(await queue.next() == "line 10")
        queue.close()
        #expect(await queue.next() == nil)
    }
}
