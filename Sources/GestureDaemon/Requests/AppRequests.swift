import GestureConfig
import GestureCore
import GestureProtocol
import Logging

/// An open device (live or injected) whose surface `set-surface` changes.
protocol SurfaceDevice: AnyObject {
    var ref: DeviceRef { get }
    var surface: SurfaceConfiguration { get set }
}

/// Requests through which clients own part of the screen (docs/protocol.md, "Apps"): `attach`,
/// `update` and `detach` of region subtrees with gestures on them, and `set-surface`. Keeps every
/// attachment (in attach order, to re-attach after a reload) and the per-client caps. Owned by the
/// loop thread; the engine is passed in.
final class AppRequests {
    struct Attached {
        var client: Int
        /// Qualified for a client's own region, plain for a config region.
        var parent: String
        /// Qualified ids (`ClientNamespace`).
        var region: RegionSpec
        var recognizers: [RecognizerSpec]
    }

    struct Answer {
        var reply: String
        var outputs: [EngineOutput] = []
        /// The tree changed (touch subscribers are to be recomputed).
        var changed = false
    }

    private(set) var attached: [Attached] = []
    var regionLimit: Int
    var gestureLimit: Int
    /// Attached gestures the daemon holds at once, all clients together: it bounds the cost of
    /// attaching (the arbitration's pair table grows with the square of the gesture count).
    static let totalGestureLimit = 1024
    /// Distinct names the daemon keeps before it refuses ids it has never seen
    /// (`InternedString.limit`; lowered by tests).
    var nameLimit = InternedString.limit
    var surfaces = SurfaceOverrides()
    private let logger: Logger

    /// For `status`: regions and gestures attached by clients, all together.
    var statusFields: [(String, String)] {
        [("attachedRegions", String(attached.reduce(0) { $0 + $1.region.allIDs.count })),
         ("attachedGestures", String(attached.reduce(0) { $0 + $1.recognizers.count }))]
    }

    init(settings: SocketSettings, logger: Logger) {
        regionLimit = settings.clientRegionLimit
        gestureLimit = settings.clientGestureLimit
        self.logger = logger
    }

    func answer(_ request: ClientRequest, client: ClientInfo, pipeline: inout GesturePipeline,
                devices: [any SurfaceDevice], at time: Timestamp) -> Answer {
        let name = request.request
        let fields: AppRequestLine.Fields
        switch AppRequestLine.fields(of: request) {
        case .success(let f): fields = f
        case .failure(let error): return Answer(reply: ProtocolLine.error(error.message, request: name))
        }
        switch name {
        case "attach": return attach(request, fields, client: client, &pipeline)
        case "update": return update(request, fields, client: client.id, &pipeline)
        case "detach": return detach(fields, client: client.id, &pipeline, at: time)
        default: return setSurface(fields, &pipeline, devices: devices)
        }
    }

    // MARK: attach / update / detach

    private func attach(_ request: ClientRequest, _ fields: AppRequestLine.Fields, client connection: ClientInfo,
                        _ pipeline: inout GesturePipeline) -> Answer {
        let client = connection.id
        func refuse(_ message: String) -> Answer { Answer(reply: ProtocolLine.error(message, request: "attach")) }
        let parentName = fields.parent ?? pipeline.engine.configuration.root.id
        let own = ClientNamespace.qualify(parentName, client: client)
        let parent: String
        if pipeline.engine.hasRegion(own) {
            parent = own
        } else if !ClientNamespace.isQualified(parentName) && pipeline.engine.hasRegion(parentName) {
            parent = parentName
        } else {
            return refuse("parent: no region '\(parentName)' (a region of the config or one you attached)")
        }
        let attachment: Attachment
        switch RequestReader.attachment(request.line ?? "", parent: parentName) {
        case .success(let a): attachment = a
        case .failure(let errors): return refuse(errors.description + "; nothing was attached")
        }
        for id in attachment.region.allIDs where pipeline.engine.hasRegion(ClientNamespace.qualify(id, client: client)) {
            return refuse("regions: you already attached a region '\(id)' (update or detach it); nothing was attached")
        }
        let mine = attached.filter { $0.client == client }
        let regions = mine.reduce(0) { $0 + $1.region.allIDs.count } + attachment.region.allIDs.count
        let gestures = mine.reduce(0) { $0 + $1.recognizers.count } + attachment.recognizers.count
        if regions > regionLimit {
            logger.notice("attach refused: region cap", metadata: ["client": "\(client)", "regions": "\(regions)"])
            return refuse("limit: this would give you \(regions) regions, over your cap of \(regionLimit) "
                + "(socket.max-regions-per-client); nothing was attached")
        }
        if gestures > gestureLimit {
            logger.notice("attach refused: gesture cap", metadata: ["client": "\(client)", "gestures": "\(gestures)"])
            return refuse("limit: this would give you \(gestures) gestures, over your cap of \(gestureLimit) "
                + "(socket.max-gestures-per-client); nothing was attached")
        }
        let configured = pipeline.engine.configuration.recognizers.count { !ClientNamespace.isQualified($0.id) }
        if pipeline.engine.recognizerSlotCount - configured + attachment.recognizers.count > Self.totalGestureLimit {
            return refuse("limit: the daemon holds \(Self.totalGestureLimit) attached gestures (all clients); "
                + "try again once touches have lifted or others detach; nothing was attached")
        }
        let region = ClientNamespace.qualify(attachment.region, client: client)
        let recognizers = attachment.recognizers.map { ClientNamespace.qualify($0, client: client) }
        // Names are kept for the life of the daemon (InternedString): ids never seen before are
        // refused once the table is full, so no client can grow it without bound.
        let unseen = InternedString.unseen(region.allIDs + recognizers.map(\.id))
        if unseen > 0 && InternedString.count + unseen > nameLimit {
            logger.notice("attach refused: names", metadata: ["client": "\(client)", "new": "\(unseen)"])
            return refuse("limit: the daemon keeps at most \(nameLimit) distinct names and this would "
                + "add \(unseen) it has not seen; reuse ids you attached before; nothing was attached")
        }
        do {
            try pipeline.engine.attach(region, under: parent, recognizers: recognizers)
        } catch {
            return refuse("\(error); nothing was attached")
        }
        attached.append(Attached(client: client, parent: parent, region: region, recognizers: recognizers))
        logger.info("region attached", metadata: [
            "client": "\(connection.name)", "region": "\(attachment.region.id)", "parent": "\(parentName)",
            "regions": "\(attachment.region.allIDs.count)", "gestures": "\(recognizers.count)"])
        return Answer(reply: ProtocolLine.response("attach", [
            ("region", ProtocolLine.string(attachment.region.id)),
            ("regions", ProtocolLine.strings(attachment.region.allIDs)),
            ("gestures", ProtocolLine.strings(attachment.recognizers.map(\.id))),
        ]), changed: true)
    }

    private func update(_ request: ClientRequest, _ fields: AppRequestLine.Fields, client: Int,
                        _ pipeline: inout GesturePipeline) -> Answer {
        func refuse(_ message: String) -> Answer { Answer(reply: ProtocolLine.error(message, request: "update")) }
        guard let id = fields.region else { return refuse("region: missing (the id of a region you attached)") }
        let q = ClientNamespace.qualify(id, client: client)
        guard pipeline.engine.hasRegion(q) else { return refuse("region: you have no region '\(id)'") }
        let change: RegionChange
        switch RequestReader.regionChange(request.line ?? "", id: id) {
        case .success(let c): change = c
        case .failure(let errors): return refuse(errors.description + "; nothing was changed")
        }
        guard change.frame != nil || change.hidden != nil || change.interactive != nil else {
            return refuse("nothing to change: give frame, hidden or interactive")
        }
        do {
            try pipeline.engine.updateRegion(q, frame: change.frame, hidden: change.hidden, interactive: change.interactive)
        } catch {
            return refuse("\(error)")
        }
        for i in attached.indices where attached[i].client == client {
            let done = attached[i].region.update(q) { r in
                if let frame = change.frame { r.frame = frame }
                if let hidden = change.hidden { r.hidden = hidden }
                if let interactive = change.interactive { r.interactionEnabled = interactive }
            }
            if done { break }
        }
        return Answer(reply: ProtocolLine.response("update", [("region", ProtocolLine.string(id))]))
    }

    private func detach(_ fields: AppRequestLine.Fields, client: Int, _ pipeline: inout GesturePipeline,
                        at time: Timestamp) -> Answer {
        guard let id = fields.region else {
            return Answer(reply: ProtocolLine.error("region: missing (the id of a region you attached)", request: "detach"))
        }
        let q = ClientNamespace.qualify(id, client: client)
        guard let outputs = try? pipeline.engine.detach(region: q, at: time) else {
            return Answer(reply: ProtocolLine.error("region: you have no region '\(id)'", request: "detach"))
        }
        let removed = forget(q, client: client)
        logger.info("region detached", metadata: ["client": "\(client)", "region": "\(id)", "regions": "\(removed)"])
        return Answer(reply: ProtocolLine.response("detach", [("region", ProtocolLine.string(id))]),
                      outputs: outputs, changed: true)
    }

    /// Everything client `client` attached goes, as if detached (the client disconnected).
    func clientGone(_ client: Int, pipeline: inout GesturePipeline, at time: Timestamp) -> [EngineOutput] {
        var out: [EngineOutput] = []
        for a in attached where a.client == client && pipeline.engine.hasRegion(a.region.id) {
            if let o = try? pipeline.engine.detach(region: a.region.id, at: time) { out += o }
        }
        let count = attached.count { $0.client == client }
        attached.removeAll { $0.client == client }
        if count > 0 {
            let cancelled = out.compactMap { output -> String? in
                guard case .gesture(let g) = output, g.state == .cancelled else { return nil }
                return ClientNamespace.local(g.gesture, for: client)
            }
            logger.info("client's regions detached", metadata: [
                "client": "\(client)", "attachments": "\(count)", "cancelled": "\(cancelled.joined(separator: ","))"])
        }
        return out
    }

    /// Drops region `q` (qualified) from the registry with its subtree and the attachments below it;
    /// returns how many regions went.
    private func forget(_ q: String, client: Int) -> Int {
        var gone = Set<String>()
        var drop = Set<Int>()
        for i in attached.indices where attached[i].client == client {
            if attached[i].region.id == q {
                gone = Set(attached[i].region.allIDs)
                drop.insert(i)
                break
            }
            if let sub = attached[i].region.remove(q) {
                gone = Set(sub.allIDs)
                attached[i].recognizers.removeAll { gone.contains($0.region) }
                break
            }
        }
        // Attachments under a removed region went with it (they come later in attach order).
        for i in attached.indices where !drop.contains(i) && gone.contains(attached[i].parent) {
            gone.formUnion(attached[i].region.allIDs)
            drop.insert(i)
        }
        attached = attached.enumerated().filter { !drop.contains($0.offset) }.map(\.element)
        return gone.count
    }

    /// After a reload built a fresh engine: attaches everything again, in order. An attachment whose
    /// parent region is gone is dropped; its client gets a `detached` line (client, line).
    func reattach(_ pipeline: inout GesturePipeline) -> [(client: Int, line: String)] {
        var kept: [Attached] = []
        var notes: [(client: Int, line: String)] = []
        for a in attached {
            do {
                try pipeline.engine.attach(a.region, under: a.parent, recognizers: a.recognizers)
                kept.append(a)
            } catch {
                var j = JSONLine()
                j.add("type", "detached")
                j.add("region", ClientNamespace.local(a.region.id, for: a.client))
                j.add("reason", "its parent region '\(ClientNamespace.local(a.parent, for: a.client))' is gone after a config reload")
                notes.append((a.client, j.line))
            }
        }
        attached = kept
        return notes
    }

    /// Regions some subscribed client wants the touches of (qualified when they are its own), and
    /// `"*"` when one wants every touch (then a touch no region consumes is streamed still).
    func touchSubscribers(_ clients: some Sequence<ClientConnection>, engine: GestureEngine) -> Set<String> {
        var ids = Set<String>()
        for client in clients where client.subscribed {
            for name in client.filter.touchRegions {
                if name == "*" {
                    ids.insert("*")
                    continue
                }
                let own = ClientNamespace.qualify(name, client: client.id)
                ids.insert(engine.hasRegion(own) ? own : name)
            }
        }
        return ids
    }

    // MARK: set-surface

    private func setSurface(_ fields: AppRequestLine.Fields, _ pipeline: inout GesturePipeline,
                            devices: [any SurfaceDevice]) -> Answer {
        func refuse(_ message: String) -> Answer { Answer(reply: ProtocolLine.error(message, request: "set-surface")) }
        var change = SurfaceOverrides.Change()
        if let rotation = fields.rotation {
            guard let r = SurfaceRotation(rawValue: rotation) else {
                return refuse("rotation: expected 0, 90, 180 or 270, got \(rotation)")
            }
            change.rotation = r
        }
        if let size = fields.size {
            guard size.count == 2, size.allSatisfy({ $0 > 0 && $0.isFinite }) else {
                return refuse("size: expected 2 numbers [width, height] above zero, got \(size.count) item(s)")
            }
            change.size = Point(x: size[0], y: size[1])
        }
        guard change.rotation != nil || change.size != nil else { return refuse("nothing to change: give rotation or size") }
        let targets: [any SurfaceDevice]
        if let wanted = fields.device {
            targets = devices.filter { $0.ref.name == wanted || String($0.ref.id) == wanted }
            guard !targets.isEmpty else { return refuse("device: no device '\(wanted)' (see the devices request)") }
            for name in Set(targets.map(\.ref.name)) { surfaces.record(change, device: name) }
        } else {
            targets = devices.filter { $0.ref.kind == .touchscreen }
            surfaces.record(change, device: nil)
        }
        // While a desktop bridge is connected, a touchscreen on one of its outputs follows that
        // output (docs/rotation.md, "With a desktop bridge"): the compositor's transform is the truth.
        // The change is kept, and applies when the bridge goes; the reply names who overrides it.
        var overridden: [String] = []
        for device in targets {
            if device.ref.kind == .touchscreen, let desktop = pipeline.engine.desktop,
               let name = pipeline.engine.output(forDevice: device.ref.id), let o = desktop.output(named: name) {
                var j = JSONLine()
                j.add("device", device.ref.name)
                j.add("output", name)
                j.add("transform", o.transform.rawValue)
                overridden.append(j.line)
                continue
            }
            change.apply(to: &device.surface)
            pipeline.setSurface(device.surface, device: device.ref.id)
        }
        logger.info("surface changed", metadata: ["device": "\(fields.device ?? "every touchscreen")",
                                                  "rotation": "\(change.rotation?.rawValue ?? -1)"])
        // What was set, and for whom: `every` when it also holds for touchscreens plugged in later.
        var reply: [(String, String)] = []
        if let rotation = change.rotation { reply.append(("rotation", String(rotation.rawValue))) }
        if let size = change.size { reply.append(("size", "[\(JSONLine.number(size.x)),\(JSONLine.number(size.y))]")) }
        reply.append(("devices", ProtocolLine.strings(targets.map(\.ref.name))))
        reply.append(("every", fields.device == nil ? "true" : "false"))
        if !overridden.isEmpty { reply.append(("overridden", "[" + overridden.joined(separator: ",") + "]")) }
        return Answer(reply: ProtocolLine.response("set-surface", reply))
    }
}

/// Surface changes made at run time (`set-surface`): they apply to the devices open now and to
/// those added later (hot-plug, reload), on top of the config's surface rule.
struct SurfaceOverrides {
    struct Change {
        var rotation: SurfaceRotation?
        var size: Point?
        func apply(to surface: inout SurfaceConfiguration) {
            if let rotation { surface.rotation = rotation }
            if let size { surface.size = size }
        }
        func merged(onto other: Change?) -> Change {
            Change(rotation: rotation ?? other?.rotation, size: size ?? other?.size)
        }
    }

    /// For every touchscreen (no `device` given).
    private var touchscreens: Change?
    private var byName: [String: Change] = [:]

    mutating func record(_ change: Change, device: String?) {
        if let device {
            byName[device] = change.merged(onto: byName[device])
        } else {
            touchscreens = change.merged(onto: touchscreens)
            // A change for every touchscreen replaces what was said per touchscreen before.
            for (name, c) in byName {
                byName[name] = Change(rotation: change.rotation == nil ? c.rotation : nil,
                                      size: change.size == nil ? c.size : nil)
            }
        }
    }

    /// `surface` (from the config) with the run-time changes for this device.
    func applied(to surface: SurfaceConfiguration, device: DeviceRef) -> SurfaceConfiguration {
        var s = surface
        if device.kind == .touchscreen { touchscreens?.apply(to: &s) }
        byName[device.name]?.apply(to: &s)
        return s
    }
}
