import GestureCore
#if canImport(Glibc)
import Glibc
#endif
import GesturePosix

/// KDE Plasma's KWin over the session bus. The bridge owns `org.gestured.KWin`, loads the gestured KWin
/// script (`org.kde.kwin.Scripting.loadScript`) and runs it (KWin 5.27: `/N org.kde.kwin.Script.run`;
/// KWin 6: `/Scripting/ScriptN`); the script calls `org.gestured.KWin1.Windows(json)` on every change.
/// KWin 5.27's output names and scales come from `org.kde.KWin.supportInformation`, rotations from
/// `kscreen-doctor -j`, both read again only when the script's output geometry changed. The script is
/// unloaded on `disconnect` (the bridge's exit included).
public final class KWinSource: DesktopSource, DBusMessageSource {
    static let busName = "org.gestured.KWin"
    static let scriptName = "gestured-desktop"
    /// A push larger than this is dropped.
    static let maximumPushBytes = 8 << 20

    public var backend: String { "kde" }
    public let target: String
    /// The script tells of every change: no polling.
    public var missesChanges: Bool { false }
    public private(set) var notice: String?
    let scriptPath: String
    /// Why no script was found, when none was (every place looked in).
    private let scriptMissing: DesktopAssets.Missing?
    private let address: String?
    private var bus: DBusConnection?
    private var latest: String?
    private var outputs: [DesktopOutput] = []
    private var outputSummary: DesktopJSON?
    private var rotations: [String: OutputTransform] = [:]

    public init(address: String?, scriptPath: String) {
        self.address = address
        self.target = address ?? "the session bus"
        self.scriptPath = scriptPath
        self.scriptMissing = nil
    }

    /// With the script `DesktopAssets` found (or the places it looked in).
    public init(address: String?, script: Result<String, DesktopAssets.Missing>) {
        self.address = address
        self.target = address ?? "the session bus"
        switch script {
        case .success(let path):
            scriptPath = path
            scriptMissing = nil
        case .failure(let missing):
            scriptPath = missing.tried.first ?? DesktopAssets.installedRoot + "/" + DesktopAssets.kwinScript
            scriptMissing = missing
        }
    }

    public var eventDescriptors: [Int32] { bus?.descriptor.map { [$0] } ?? [] }

    public func connect() throws(DesktopSourceError) {
        disconnect()
        let bus = try DBusConnection(address: address)
        self.bus = bus
        do throws(DesktopSourceError) {
            guard bus.hasOwner("org.kde.KWin") else { throw DesktopSourceError("KWin is not on \(target) (nobody owns org.kde.KWin)") }
            try bus.requestName(Self.busName)
            try bus.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.kde.KWin'")
            try loadScript(bus)
        } catch {
            disconnect()
            throw error
        }
    }

    private func scripting(_ bus: DBusConnection, _ method: String, _ arguments: [DBusConnection.Argument]) throws(DesktopSourceError) -> [DesktopJSON] {
        do {
            return try bus.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", method, arguments)
        } catch {
            throw DesktopSourceError("KWin: \(error.description)")
        }
    }

    /// Loads and runs the script, and waits for its first report. A script of the same name left
    /// over (a bridge killed hard) is unloaded first, and its deferred deletion awaited: KWin 5.27
    /// numbers scripts by the length of its list, so a script loaded before the old one is gone can
    /// get its number, and running that number would run the old one.
    private func loadScript(_ bus: DBusConnection) throws(DesktopSourceError) {
        if let scriptMissing { throw DesktopSourceError("KDE: the KWin script \(scriptMissing)") }
        guard access(scriptPath, R_OK) == 0 else {
            throw DesktopSourceError("KDE: the KWin script \(scriptPath) cannot be read (is the gestured package installed?)")
        }
        if try scripting(bus, "isScriptLoaded", [.string(Self.scriptName)]).first?.bool == true {
            _ = try scripting(bus, "unloadScript", [.string(Self.scriptName)])
            try waitUntil(deadline: monotonicMicroseconds() + requestTimeoutMicroseconds) { () throws(DesktopSourceError) in
                try scripting(bus, "isScriptLoaded", [.string(Self.scriptName)]).first?.bool != true
            }
        }
        guard let id = try scripting(bus, "loadScript", [.string(scriptPath), .string(Self.scriptName)]).first?.int, id >= 0 else {
            throw DesktopSourceError("KWin refused to load the script \(scriptPath)")
        }
        var ran = false
        for path in ["/\(id)", "/Scripting/Script\(id)"] where !ran {
            ran = (try? bus.call("org.kde.KWin", path, "org.kde.kwin.Script", "run")) != nil
        }
        if !ran { _ = try scripting(bus, "start", []) }
        if try !awaitReport(bus) {
            // The number may have reached another script: start runs every loaded one.
            _ = try scripting(bus, "start", [])
            guard try awaitReport(bus) else { throw DesktopSourceError("KWin loaded the script \(scriptPath) but it never reported in") }
        }
    }

    private func awaitReport(_ bus: DBusConnection) throws(DesktopSourceError) -> Bool {
        var reported = false
        try waitUntil(deadline: monotonicMicroseconds() + requestTimeoutMicroseconds, orGiveUp: true) { () throws(DesktopSourceError) in
            if let fd = bus.descriptor { _ = Poll.readable(fd, until: monotonicMicroseconds() + 20_000) }
            reported = try handle(bus.takeMessages(read: true)) || latest != nil
            return reported
        }
        return reported
    }

    private func waitUntil(deadline: Int64, orGiveUp: Bool = false, _ condition: () throws(DesktopSourceError) -> Bool) throws(DesktopSourceError) {
        while try !condition() {
            guard monotonicMicroseconds() < deadline else {
                if orGiveUp { return }
                throw DesktopSourceError("KWin: the old script \(Self.scriptName) was not unloaded in time")
            }
            Poll.sleep(microseconds: 10_000)
        }
    }

    public func disconnect() {
        if let bus, bus.isConnected {
            _ = try? bus.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [.string(Self.scriptName)],
                              timeoutMicroseconds: 500_000)
        }
        bus?.close()
        bus = nil
        latest = nil
        outputSummary = nil
    }

    public func drainEvents() throws(DesktopSourceError) -> Bool { try drainBus() }
    public func takeQueuedEvents() -> Bool { takeQueuedBusMessages() }
    var messageBus: DBusConnection? { bus }

    /// Keeps the latest push (a flood costs one read); throws when KWin left the bus.
    func handle(_ messages: [DBusConnection.Message]) throws(DesktopSourceError) -> Bool {
        var any = false
        for message in messages {
            switch (message.kind, message.member) {
            case (.methodCall, "Windows"):
                guard let text = message.arguments.first?.string, text.utf8.count <= Self.maximumPushBytes else { continue }
                latest = text
                any = true
            case (.signal, "NameOwnerChanged"):
                if message.arguments.first?.string == "org.kde.KWin",
                   message.arguments.count >= 3, message.arguments[2].string?.isEmpty != false {
                    throw DesktopSourceError("KWin left \(target)")
                }
            default:
                break
            }
        }
        return any
    }

    public func read() throws(DesktopSourceError) -> Desktop {
        guard let bus else { throw DesktopSourceError("\(target): not connected") }
        guard let latest else { return Desktop(outputs: outputs) }
        let json: DesktopJSON
        switch Self.parse(push: latest) {
        case .success(let parsed): json = parsed
        case .failure(let unreadable):
            notice = unreadable.notice
            return Desktop(outputs: outputs)
        }
        if Self.outputsChanged(push: json, since: outputSummary) {
            outputSummary = json["outputs"]
            if Self.needsSupportInformation(push: json) {
                let reply: [DesktopJSON]
                do { reply = try bus.call("org.kde.KWin", "/KWin", "org.kde.KWin", "supportInformation") } catch {
                    throw DesktopSourceError("KWin: \(error.description)")
                }
                outputs = KWinReader.outputs(supportInformation: reply.first?.string ?? "")
            }
            // Only when the outputs changed; a kscreen-doctor that hangs is killed at the deadline.
            let doctor = try? ChildProcess.output("kscreen-doctor", ["-j"], extraEnvironment: ["QT_QPA_PLATFORM=wayland", "KSCREEN_BACKEND_INPROCESS=1"],
                                                  timeoutMicroseconds: requestTimeoutMicroseconds).get()
            rotations = (doctor.flatMap { try? DesktopJSON(parsing: $0) }).map(KWinReader.rotations(kscreenDoctor:)) ?? [:]
            if doctor == nil { notice = "KDE: kscreen-doctor -j gave no outputs (package libkf5screen-bin or kscreen): outputs are taken as not rotated" }
        }
        let scene: Desktop
        (scene, notice) = Self.scene(push: json, outputs: outputs, rotations: rotations, notice: notice)
        return scene
    }
}

/// The pure part: what the script's pushes mean (tested without a desktop, KWinSourceTests).
extension KWinSource {
    /// A push that is not JSON: the notice saying its windows are left out.
    struct UnreadablePush: Error, Equatable {
        var notice: String
    }

    /// The JSON of a push from the script.
    static func parse(push text: String) -> Result<DesktopJSON, UnreadablePush> {
        do { return .success(try DesktopJSON(parsing: text)) } catch {
            return .failure(UnreadablePush(notice: "KDE: the KWin script sent what gesturectl cannot read (\(error)): its windows are left out until it sends again"))
        }
    }

    /// Whether the push's output summary differs from the last one read (the outputs are read again
    /// only then: KWin 5.27's `supportInformation`, `kscreen-doctor`).
    static func outputsChanged(push json: DesktopJSON, since summary: DesktopJSON?) -> Bool { json["outputs"] != summary }

    /// KWin 5.27's script cannot see output names and scales: `supportInformation` tells them. KWin 6's can.
    static func needsSupportInformation(push json: DesktopJSON) -> Bool { json["kwin"]?.int != 6 }

    /// The scene of a push over the outputs, and the notice after it: a notice about an unreadable push
    /// is cleared by a readable one (others stay); a push the reader refuses gives the outputs alone.
    static func scene(push json: DesktopJSON, outputs: [DesktopOutput], rotations: [String: OutputTransform],
                      notice: String?) -> (Desktop, notice: String?) {
        do {
            let scene = try KWinReader.scene(windows: json, outputs: outputs, rotations: rotations)
            return (scene, notice?.hasPrefix("KDE: the KWin script") == true ? nil : notice)
        } catch {
            return (Desktop(outputs: outputs), "KDE: \(error): its windows are left out until it sends again")
        }
    }
}
