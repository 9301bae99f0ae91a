import GestureCore
import GestureDesktop
import Testing

@Suite struct X11ReaderTests {
    static let screen = DesktopOutput(name: "screen0", x: 0, y: 0, width: 1024, height: 768)

    static func client(_ id: UInt32, _ wmClass: String, x: Double, y: Double, desktop: UInt32? = 0) -> X11WindowFacts {
        var facts = X11WindowFacts(id: id)
        facts.wmClass = Array(wmClass.utf8)
        facts.x = x
        facts.y = y
        facts.width = 484
        facts.height = 316
        facts.desktop = desktop
        facts.frame = [1, 1, 22, 4]
        facts.netName = Array("xterm".utf8)
        facts.pid = 99
        return facts
    }

    @Test func framedVisibleClientsBottomFirst() {
        var hidden = Self.client(3, "xterm\0XTerm\0", x: 0, y: 0)
        hidden.hidden = true
        var unmapped = Self.client(4, "xterm\0XTerm\0", x: 0, y: 0)
        unmapped.viewable = false
        var full = Self.client(6, "mpv\0mpv\0", x: 0, y: 0, desktop: 0xFFFF_FFFF)
        full.fullscreen = true
        full.frame = []
        let scene = X11Reader.scene(screen: Self.screen, clients: [
            Self.client(1, "xterm\0XTerm\0", x: 101, y: 122), hidden, unmapped,
            Self.client(5, "other\0Other\0", x: 10, y: 10, desktop: 1), Self.client(2, "left\0Left\0", x: 300, y: 300), full,
        ], currentDesktop: 0, active: 2, pointer: (x: 500, y: 400))
        #expect(scene.windows.map(\.id) == ["1", "2", "6"])
        let first = scene.windows[0]
        #expect((first.x, first.y, first.width, first.height) == (100, 100, 486, 342))
        #expect(first.app == "XTerm")
        #expect(first.title == "xterm")
        #expect(first.pid == 99)
        #expect(first.workspace == "1")
        #expect(scene.windows[1].focused)
        #expect(scene.windows[2].fullscreen)
        #expect(scene.windows[2].workspace == "all")
        #expect(scene.windows.map(\.stack) == [0, 1, 2])
        #expect(scene.pointer == DesktopPointer(output: "screen0", x: 500, y: 400))
    }

    @Test func wmClassAndNames() {
        #expect(X11Reader.className(Array("Navigator\0firefox\0".utf8)) == "firefox")
        #expect(X11Reader.className(Array("lonely".utf8)) == "lonely")
        #expect(X11Reader.className([]) == "")
        var facts = X11WindowFacts(id: 9)
        facts.name = Array("old name".utf8)
        let scene = X11Reader.scene(screen: Self.screen, clients: [facts], currentDesktop: nil, active: nil, pointer: (x: 2000, y: 0))
        #expect(scene.windows.first?.title == "old name")
        #expect(scene.pointer == nil)
    }
}
