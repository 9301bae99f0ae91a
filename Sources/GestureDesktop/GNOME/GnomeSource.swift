import GestureCore
import GesturePosix
/// GNOME Shell over the session bus: outputs from `org.gnome.Mutter.DisplayConfig` (`GetCurrentState`,
/// read again after `MonitorsChanged`), windows from the gestured Shell extension
/// (`org.gestured.Desktop`, `GetWindows`, read again after its coalesced `WindowsChanged`).
///
/// The extension is optional: without it (not installed, disabled, or answering garbage) the scene
/// has the outputs and no windows, and `notice` says what to run. GNOME Shell leaving the bus is the
/// compositor lost; the extension leaving it costs its windows only.
public final class GnomeSource: DesktopSource, DBusMessageSource {
    public static let extensionUUID = "gestured@gestured.org"
    static let extensionName = "org.gestured.Desktop"
    static let extensionPath = "/org/gestured/Desktop"
    static let extensionInterface = "org.gestured.Desktop1"
    static let displayConfig = "org.gnome.Mutter.DisplayConfig"
    /// A `GetWindows` reply larger than this is not read (a window list is a few hundred bytes a window).
    static let maximumReplyBytes = 8 << 20

    public var backend: String { "gnome" }
    public let target: String
    /// GNOME tells of moves and resizes (the extension's signal): no polling.
    public var missesChanges: Bool { false }
    public private(set) var notice: String?
    private let address: String?
    /// The session's environment, for where the extension's copies are (`DesktopAssets`).
    let environment: [String: String]
    private var bus: DBusConnection?
    private var outputs: [DesktopOutput]?

    /// `address`: the session bus's address; nil for the one libdbus finds.
    public init(address: String?, environment: [String: String] = [:]) {
        self.address = address
        self.target = address ?? "the session bus"
        self.environment = environment
    }

    public var eventDescriptors: [Int32] { bus?.descriptor.map { [$0] } ?? [] }

    public func connect() throws(DesktopSourceError) {
        disconnect()
        let bus = try DBusConnection(address: address)
        guard bus.hasOwner(Self.displayConfig) else {
            bus.close()
            throw DesktopSourceError("GNOME Shell is not on \(target) (nobody owns \(Self.displayConfig))")
        }
        for rule in ["type='signal',interface='\(Self.displayConfig)',member='MonitorsChanged'",
                     "type='signal',interface='\(Self.extensionInterface)',member='WindowsChanged'",
                     "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.extensionName)'",
                     "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.displayConfig)'"] {
            do { try bus.addMatch(rule) } catch { bus.close(); throw error }
        }
        self.bus = bus
        outputs = nil
    }

    public func disconnect() {
        bus?.close()
        bus = nil
        outputs = nil
    }

    public func drainEvents() throws(DesktopSourceError) -> Bool { try drainBus() }
    public func takeQueuedEvents() -> Bool { takeQueuedBusMessages() }
    var messageBus: DBusConnection? { bus }

    /// Whether the messages say something changed; throws when GNOME Shell left the bus.
    func handle(_ messages: [DBusConnection.Message]) throws(DesktopSourceError) -> Bool {
        var any = false
        for message in messages where message.kind == .signal {
            switch message.member {
            case "MonitorsChanged":
                outputs = nil
                any = true
            case "WindowsChanged":
                any = true
            case "NameOwnerChanged":
                let name = message.arguments.first?.string ?? ""
                let newOwner = message.arguments.count >= 3 ? message.arguments[2].string ?? "" : ""
                if name == Self.displayConfig {
                    if newOwner.isEmpty { throw DesktopSourceError("GNOME Shell left \(target)") }
                    outputs = nil
                }
                any = true
            default:
                break
            }
        }
        return any
    }

    public func read() throws(DesktopSourceError) -> Desktop {
        guard let bus else { throw DesktopSourceError("\(target): not connected") }
        let outputs: [DesktopOutput]
        if let known = self.outputs {
            outputs = known
        } else {
            do {
                let reply = try bus.call(Self.displayConfig, "/org/gnome/Mutter/DisplayConfig", Self.displayConfig, "GetCurrentState")
                outputs = try GnomeReader.outputs(currentState: reply)
            } catch let failure as DBusConnection.CallFailure {
                throw DesktopSourceError("GNOME Shell: \(failure.description)")
            } catch {
                throw DesktopSourceError("GNOME Shell: \(error)")
            }
            self.outputs = outputs
        }
        let reply: [DesktopJSON]
        do {
            reply = try bus.call(Self.extensionName, Self.extensionPath, Self.extensionInterface, "GetWindows")
        } catch {
            notice = Self.extensionIsMissing(error) ? missingExtensionNotice(bus) : Self.failedNotice(error)
            return Desktop(outputs: outputs)
        }
        let scene: Desktop
        (scene, notice) = Self.scene(getWindows: reply, outputs: outputs)
        return scene
    }
}

/// The pure part: what the messages and replies mean (tested without a desktop, GnomeSourceTests).
extension GnomeSource {
    /// Whether a failed `GetWindows` says the extension is not there (rather than that it failed).
    static func extensionIsMissing(_ error: DBusConnection.CallFailure) -> Bool {
        ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
         "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod"].contains(error.name)
    }

    /// The notice for an extension that is there and failed to answer.
    static func failedNotice(_ error: DBusConnection.CallFailure) -> String {
        "GNOME: the Shell extension \(extensionUUID) failed (\(error.description)): windows are unknown until it answers; window rules do not apply meanwhile, everything else works"
    }

    /// The scene from the extension's `GetWindows` reply (one JSON string) over the outputs, with no
    /// notice; a reply it cannot read gives the outputs alone and the notice saying so.
    static func scene(getWindows reply: [DesktopJSON], outputs: [DesktopOutput]) -> (Desktop, notice: String?) {
        do {
            guard let text = reply.first?.string else { throw GnomeReader.Failure(description: "GetWindows: expected one string") }
            guard text.utf8.count <= maximumReplyBytes else {
                throw GnomeReader.Failure(description: "GetWindows: \(text.utf8.count) bytes, more than \(maximumReplyBytes)")
            }
            let json: DesktopJSON
            do { json = try DesktopJSON(parsing: text) } catch { throw GnomeReader.Failure(description: "GetWindows: \(error)") }
            return (try GnomeReader.scene(outputs: outputs, windows: json), nil)
        } catch {
            return (Desktop(outputs: outputs), "GNOME: the Shell extension \(extensionUUID) answered what gesturectl cannot read (\(error)): its windows are left out; window rules do not apply meanwhile, everything else works")
        }
    }
}

extension GnomeSource {
    /// The Shell's version (`org.gnome.Shell`'s `ShellVersion` property, "48.7"), nil when it does not say.
    static func shellVersion(_ bus: DBusConnection) -> String? {
        let reply = try? bus.call("org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties", "Get",
                                  [.string("org.gnome.Shell"), .string("ShellVersion")])
        return reply?.first?["data"]?.string ?? reply?.first?.string
    }

    /// What the Shell says of the extension, for the variant its version needs.
    static func extensionState(_ bus: DBusConnection, shellVersion: String?) -> GnomeExtensionState {
        let needed = shellVersion.flatMap(GnomeExtensionVariant.init(shellVersion:)) ?? .modules
        let info = try? bus.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell.Extensions", "GetExtensionInfo",
                                 [.string(extensionUUID)])
        return GnomeExtensionState.classify(info: info?.first, ownerPresent: bus.hasOwner(extensionName), needed: needed,
                                            variantAt: variant(at:))
    }

    /// The variant in an extension folder: a 45+ extension is an ES module (`export default`).
    static func variant(at path: String) -> GnomeExtensionVariant? {
        guard case .success(let bytes) = readWholeFile(path + "/extension.js") else { return nil }
        return String(decoding: bytes, as: UTF8.self).contains("export default") ? .modules : .legacy
    }

    /// The missing-extension notice, with the fix for this Shell (its variant, from the package or the
    /// checkout).
    func missingExtensionNotice(_ bus: DBusConnection) -> String {
        let version = Self.shellVersion(bus)
        let state = Self.extensionState(bus, shellVersion: version)
        let shell = version.map { "GNOME Shell \($0)" } ?? "GNOME Shell"
        let needed = version.flatMap(GnomeExtensionVariant.init(shellVersion:)) ?? .modules
        let explained = state.explanation(shell: shell, install: Self.installFix(needed: needed, environment: environment))
        return "GNOME: \(explained.problem), so windows are unknown and window rules do not apply; outputs, rotation and "
            + "every other gesture still work. To fix it, \(explained.fix ?? "nothing to do")"
    }

    /// The install fix for a variant: the package's chooser when the package's copies are there, else
    /// the checkout's copy.
    static func installFix(needed: GnomeExtensionVariant, environment: [String: String]) -> String {
        let packaged = DesktopAssets.readable(DesktopAssets.installedRoot + "/" + needed.folder + "/metadata.json")
        let copy = try? DesktopAssets.gnomeExtension(needed, environment: environment).get()
        return GnomeExtensionState.installFix(needed: needed, packaged: packaged, copy: copy)
    }
}
