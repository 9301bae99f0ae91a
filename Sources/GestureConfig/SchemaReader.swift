import GestureCore
import GestureYAML

/// Maps the YAML schema (docs/configuration.md) onto the model, then checks cross references.
final class SchemaReader {
    let reader: YAMLReader

    /// A reference to an id, with the node it was written at.
    struct Reference {
        var id: String
        var node: Node
    }

    /// A parsed gesture with the positions needed for cross checks.
    struct GestureEntry {
        var spec: RecognizerSpec
        var idNode: Node
        var region: Reference?
        var requireToFail: [Reference]
        var simultaneousWith: [Reference]
        /// False when `kind` was missing or bad (reported): the spec's kind is a placeholder, and
        /// the gesture's bindings are not checked against it.
        var kindKnown = true
        /// `cancels-touches` / `delays-touches-began` as written (nil: not given), for forwarding's defaults.
        var cancelsGiven: Bool? = nil
        var delaysBeganGiven: Bool? = nil
    }

    var regionIDs: [String: Node] = [:]
    var regionOrder: [String] = []
    var redirects: [(from: String, to: Reference)] = []
    var gestures: [GestureEntry] = []
    /// Window rules as read (SchemaReader+Windows.swift).
    var windowEntries: [WindowRuleEntry] = []
    /// Where the socket settings checked at start-up were written (`ConfigOrigin.places`).
    var socketPlaces: [String: (line: Int, column: Int)] = [:]
    lazy var bindingReader = BindingSchemaReader(reader: reader)

    init(reader: YAMLReader) {
        self.reader = reader
    }

    static let topKeys = ["version", "devices", "surfaces", "regions", "gestures", "windows", "desktop", "bindings",
                          "socket"]

    /// The configuration, or nil when the top level is unusable (errors are in the reader).
    func configuration(_ root: Node?) -> Configuration? {
        guard let root, !YAMLReader.isNull(root) else {
            // An empty file: nothing configured, a bare root region.
            var empty = Configuration(engine: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: []))
            empty.origin = ConfigOrigin(file: reader.file)
            return empty
        }
        guard let top = reader.fields(root, in: "the configuration", allowed: Self.topKeys) else { return nil }

        if let version = top["version"] {
            _ = reader.integer(version, "'version'", in: 1...1)
        }
        var configuration = Configuration(engine: EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: []))
        if let node = top["devices"] { configuration.devices = devices(node) }
        if let node = top["surfaces"] { configuration.surfaces = surfaces(node) }
        var rootRegion = RegionSpec(id: "screen")
        if let node = top["regions"] {
            if case .sequence = node {
                reader.error(node, "'regions' is the root region, a mapping with 'id' and 'children', not a list")
            } else {
                rootRegion = region(node, isRoot: true) ?? rootRegion
            }
        } else {
            regionIDs[rootRegion.id] = root
            regionOrder.append(rootRegion.id)
        }
        if let node = top["gestures"] { readGestures(node, rootID: rootRegion.id) }
        if let node = top["windows"] { windowRules(node) }
        var touchpadWindow = TouchpadWindow.focused
        if let node = top["desktop"] { touchpadWindow = desktopSettings(node) ?? touchpadWindow }
        if let node = top["bindings"] { bindingReader.read(node) }
        if let node = top["socket"] { configuration.socket = socket(node) }

        checkReferences()
        checkWindowReferences()
        configuration.bindings = bindingReader.finish(kinds: (gestures + windowEntries.flatMap(\.gestures)).reduce(into: [:]) {
            if $1.kindKnown { $0[$1.spec.id] = $0[$1.spec.id] ?? $1.spec.kind }
        }, windowGestures: Set(windowEntries.flatMap { $0.gestures.map(\.spec.id) }))
        configuration.bindingConcurrency = bindingReader.concurrency
        let bound = Set(configuration.bindings.map(\.gesture))
        configuration.engine = EngineConfiguration(root: rootRegion, recognizers: gestures.map { entry in
            ForwardingDefaults.apply(entry.spec, claimGiven: entry.cancelsGiven, holdGiven: entry.delaysBeganGiven,
                                     taken: bound.contains(entry.spec.id))
        })
        // A window rule's gesture claims forwarded touches only when a binding names it: a gesture
        // the app keeps with no binding is published, and its touches go to the desktop unchanged.
        configuration.engine.windowRules = windowEntries.map { entry in
            var rule = entry.rule
            rule.gestures = entry.gestures.map { g in
                ForwardingDefaults.apply(g.spec, claimGiven: bound.contains(g.spec.id) ? g.cancelsGiven : false,
                                         holdGiven: g.delaysBeganGiven, taken: bound.contains(g.spec.id))
            }
            return rule
        }
        configuration.engine.touchpadWindow = touchpadWindow
        configuration.origin = ConfigOrigin(file: reader.file)
        configuration.origin.places = socketPlaces
        return configuration
    }

    // MARK: Socket requests (hooks for RequestReader)

    /// A region subtree with gestures on it, sent by a client (`attach`), read with the file's rules.
    /// Gestures default to the subtree's root region; references resolve within the request.
    func attachment(regions: Node, gestures gestureList: Node?, parent: String) -> (RegionSpec, [RecognizerSpec])? {
        let root = region(regions, isRoot: false, parent: parent)
        if let gestureList, let root { readGestures(gestureList, rootID: root.id) }
        checkReferences()
        // A client's own gestures are taken by it: they claim their touches by default.
        return root.map { root in
            (root, gestures.map { entry in
                ForwardingDefaults.apply(entry.spec, claimGiven: entry.cancelsGiven, holdGiven: entry.delaysBeganGiven,
                                         taken: true)
            })
        }
    }

    /// The keys `update` may change on a region, read with the file's rules.
    func regionChange(id: String, frame: Node?, hidden: Node?, interactive: Node?) -> (RegionFrame?, Bool?, Bool?) {
        let context = "region '\(id)'"
        return (frame.flatMap { self.frame($0, context) }, hidden.flatMap { reader.bool($0, "'hidden' in \(context)") },
                interactive.flatMap { reader.bool($0, "'interactive' in \(context)") })
    }
}
