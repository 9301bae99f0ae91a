import GestureCore
@testable import GestureDesktop
import Testing

/// The GNOME source's pure part, without GNOME: what the bus's signals mean and what a `GetWindows`
/// reply gives (captured replies, Fixtures/README.md).
@Suite struct GnomeSourceTests {
    let outputs = [DesktopOutput(name: "Meta-0", x: 0, y: 0, width: 1280, height: 800)]

    @Test func monitorsAndWindowsChangedAreChanges() throws {
        let source = GnomeSource(address: "unix:path=/nowhere")
        #expect(try source.handle([.init(.signal, member: "MonitorsChanged")]))
        #expect(try source.handle([.init(.signal, member: "WindowsChanged")]))
        #expect(try !source.handle([.init(.signal, member: "SomethingElse")]))
        // A method call named like a signal is not one.
        #expect(try !source.handle([.init(.methodCall, member: "WindowsChanged")]))
        #expect(try !source.handle([]))
    }

    @Test func theExtensionComingOrGoingIsAChangeMutterLeavingIsTheEnd() throws {
        let source = GnomeSource(address: "unix:path=/nowhere")
        func owner(_ name: String, _ new: String) -> DBusConnection.Message {
            .init(.signal, member: "NameOwnerChanged", arguments: [.string(name), .string(":1.5"), .string(new)])
        }
        #expect(try source.handle([owner(GnomeSource.extensionName, "")]))
        #expect(try source.handle([owner(GnomeSource.displayConfig, ":1.9")]))
        #expect(throws: DesktopSourceError.self) { try source.handle([owner(GnomeSource.displayConfig, "")]) }
    }

    @Test func aCapturedGetWindowsReplyGivesItsWindowsAndNoNotice() throws {
        let reply = try #require(try Fixtures.json("gnome-windows.json")["data"]?.array)
        let (scene, notice) = GnomeSource.scene(getWindows: reply, outputs: outputs)
        #expect(notice == nil)
        #expect(scene.outputs == outputs)
        #expect(!scene.windows.isEmpty)
    }

    @Test func anUnreadableReplyKeepsTheOutputsAndSaysWhy() {
        for reply: [DesktopJSON] in [[], [.number(1)], [.string("{not json")], [.string("{\"version\":99}")]] {
            let (scene, notice) = GnomeSource.scene(getWindows: reply, outputs: outputs)
            #expect(scene == Desktop(outputs: outputs), "\(reply)")
            #expect(notice?.hasPrefix("GNOME: the Shell extension gestured@gestured.org answered what gesturectl cannot read") == true,
                    "\(reply): \(notice ?? "no notice")")
        }
    }

    @Test func whichCallFailuresMeanTheExtensionIsMissing() {
        for name in ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                     "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod"] {
            #expect(GnomeSource.extensionIsMissing(.init(name: name, description: name)), "\(name)")
        }
        let failed = DBusConnection.CallFailure(name: "org.gnome.gjs.JSError.TypeError", description: "TypeError: x is undefined")
        #expect(!GnomeSource.extensionIsMissing(failed))
        #expect(!GnomeSource.extensionIsMissing(.init(name: "", description: "no reply within 500 ms")))
        #expect(GnomeSource.failedNotice(failed).contains("failed (TypeError: x is undefined)"))
    }
}

/// The KWin source's pure part, without KDE: the script's pushes (a real KWin 5.27 push and a KWin 6
/// transcript, Fixtures/README.md), the output summary's change detection, the notices.
@Suite struct KWinSourceTests {
    func push(_ name: String) throws -> String { String(decoding: try Fixtures.bytes(name), as: UTF8.self) }

    @Test func thePushIsKeptAndKWinLeavingIsTheEnd() throws {
        let source = KWinSource(address: "unix:path=/nowhere", scriptPath: "/nowhere.js")
        #expect(try source.handle([.init(.methodCall, member: "Windows", arguments: [.string("{}")])]))
        #expect(try !source.handle([.init(.methodCall, member: "Windows", arguments: [.number(1)])]))
        #expect(try !source.handle([.init(.signal, member: "Windows", arguments: [.string("{}")])]))
        let huge = String(repeating: " ", count: KWinSource.maximumPushBytes + 1)
        #expect(try !source.handle([.init(.methodCall, member: "Windows", arguments: [.string(huge)])]))
        #expect(try !source.handle([.init(.signal, member: "NameOwnerChanged",
                                          arguments: [.string("org.kde.KWin"), .string(""), .string(":1.3")])]))
        #expect(throws: DesktopSourceError.self) {
            try source.handle([.init(.signal, member: "NameOwnerChanged", arguments: [.string("org.kde.KWin"), .string(":1.3"), .string("")])])
        }
    }

    @Test func aPushThatIsNotJSONIsANotice() throws {
        guard case .failure(let unreadable) = KWinSource.parse(push: "{\"windows\": [") else {
            Issue.record("an unfinished push parsed")
            return
        }
        #expect(unreadable.notice.hasPrefix("KDE: the KWin script sent what gesturectl cannot read"))
        #expect(try KWinSource.parse(push: push("kwin-windows.json")).get()["windows"] != nil)
    }

    @Test func outputsAreReadAgainOnlyWhenTheirSummaryChanges() throws {
        let first = try KWinSource.parse(push: push("kwin-windows.json")).get()
        let rotated = try KWinSource.parse(push: push("kwin-windows-rotated.json")).get()
        #expect(KWinSource.outputsChanged(push: first, since: nil))
        #expect(!KWinSource.outputsChanged(push: first, since: first["outputs"]))
        #expect(KWinSource.outputsChanged(push: rotated, since: first["outputs"]))
        #expect(KWinSource.needsSupportInformation(push: first))
        #expect(!KWinSource.needsSupportInformation(push: try KWinSource.parse(push: push("kwin6-windows.json")).get()))
    }

    @Test func aReadablePushClearsAnUnreadablePushsNoticeOnly() throws {
        let json = try KWinSource.parse(push: push("kwin6-windows.json")).get()
        let cleared = KWinSource.scene(push: json, outputs: [], rotations: [:], notice: "KDE: the KWin script sent what …")
        #expect(cleared.notice == nil)
        #expect(cleared.0.windows.map(\.app) == ["org.kde.konsole", "firefox"])
        let kept = KWinSource.scene(push: json, outputs: [], rotations: [:], notice: "KDE: kscreen-doctor -j gave no outputs")
        #expect(kept.notice == "KDE: kscreen-doctor -j gave no outputs")
        let refused = KWinSource.scene(push: .object([("version", .string("nine"))]), outputs: [], rotations: [:], notice: nil)
        #expect(refused.0 == Desktop(outputs: []))
        #expect(refused.notice?.hasSuffix("its windows are left out until it sends again") == true)
    }
}

/// The X11 source's one decision outside `X11Reader`'s scene: what the outputs are without RandR.
@Suite struct X11SourceOutputTests {
    @Test func withoutRandRMonitorsTheScreenIsTheOneOutput() {
        #expect(X11Reader.outputs(monitors: [], screen: 1, width: 1024, height: 768)
                == [DesktopOutput(name: "screen1", x: 0, y: 0, width: 1024, height: 768)])
        // Monitors RandR names but that are off or unnamed count as none.
        #expect(X11Reader.outputs(monitors: [X11MonitorFacts(name: "", x: 0, y: 0, width: 10, height: 10)], screen: 0,
                                  width: 640, height: 480).map(\.name) == ["screen0"])
        let monitors = [X11MonitorFacts(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, rotation: 2)]
        #expect(X11Reader.outputs(monitors: monitors, screen: 0, width: 1920, height: 1080)
                == [DesktopOutput(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080, transform: .rotated90)])
    }
}
