#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureDevices
import Logging
import GesturePosix

/// What one firing of a binding does: the keys it presses and the command it runs, with the
/// environment that command gets (`gestured replay --bindings` prints these instead of doing them).
public struct BindingFiring: Sendable, Equatable {
    public var gesture: String
    /// The binding's position in the config's `bindings`.
    public var index: Int
    /// +1 / -1 for a step of a stepped binding, nil otherwise.
    public var step: Int?
    /// Key combinations, pressed in order.
    public var keys: [KeyCombo]
    public var command: String?
    /// The command's environment as a run for this trigger alone gets it (GESTURE_STEP and
    /// GESTURE_STEPS included); empty without a command.
    public var environment: [String: String]
    /// The gesture event's time.
    public var time: Timestamp
    /// What it does to its gesture's window, and that window's id (nil: the gesture has no window).
    public var action: WindowAction? = nil
    public var window: String? = nil
}

/// Decides what each gesture event makes the bindings do: which bindings fire (by state, or once
/// per step of progress for `every:`), the cooldown, then keys to the virtual keyboard (sent at
/// once) and commands to the executor (coalesced while their binding's command runs). In a dry run
/// every firing goes to a closure instead: nothing runs and no key is pressed. Owned by the loop
/// thread.
public final class BindingDispatcher {
    public private(set) var bindings: [Binding] = []
    let executor: BindingExecutor
    let keyboard: KeyboardOutput
    /// Set for a dry run: gets every firing; the keyboard and executor are left alone.
    private let dryRun: ((BindingFiring) -> Void)?
    private let logger: Logger
    /// Bumped at every configure, so runs of the old config never merge with the new one's.
    private var generation = 0
    /// Progress of each open stepped gesture: binding index and device.
    private var trackers: [TrackerKey: StepTracker] = [:]
    /// When each binding last ran (µs, CLOCK_MONOTONIC), for its cooldown.
    private var lastRun: [Int: Int64] = [:]
    /// Triggers dropped because they came within their binding's cooldown.
    public private(set) var cooledDownCount = 0
    /// Surface units per mm of a device (by name), to measure `every: 8mm` on translations given
    /// in surface units. Unknown devices: 1 (their surface is in mm).
    var unitsPerMM: (String) -> Point = { _ in Point(x: 1, y: 1) }
    /// Sends a `window-action` line to the session bridge; false when no bridge is connected
    /// (docs/desktop.md, "Actions on the window under the fingers").
    var sendWindowAction: (String) -> Bool = { _ in false }

    private struct TrackerKey: Hashable {
        var binding: Int
        var device: String
    }

    init(executor: BindingExecutor, keyboard: KeyboardOutput, logger: Logger,
         dryRun: ((BindingFiring) -> Void)? = nil) {
        self.executor = executor
        self.keyboard = keyboard
        self.logger = logger
        self.dryRun = dryRun
    }

    /// A dispatcher that decides exactly as the daemon's does but hands each firing to `report`:
    /// no virtual keyboard is created, no command runs. Commands are taken as finished before the
    /// next trigger (a live daemon coalesces triggers that come while one runs).
    public convenience init(dryRun report: @escaping (BindingFiring) -> Void, logger: Logger) {
        self.init(executor: BindingExecutor(concurrency: 1, logger: logger),
                  keyboard: KeyboardOutput(uinputPath: "", logger: logger), logger: logger, dryRun: report)
    }

    public convenience init(concurrency: Int, uinputPath: String, logger: Logger) {
        self.init(executor: BindingExecutor(concurrency: concurrency, logger: logger),
                  keyboard: KeyboardOutput(uinputPath: uinputPath, logger: logger), logger: logger)
    }

    /// Takes a config's bindings (at start and at each reload): the virtual keyboard follows
    /// their key set; steps and cooldowns start afresh; running commands go on.
    public func configure(_ configuration: Configuration) {
        bindings = configuration.bindings
        generation += 1
        trackers = [:]
        lastRun = [:]
        executor.concurrency = max(1, configuration.bindingConcurrency)
        if dryRun == nil { keyboard.configure(keys: configuration.virtualKeys) }
    }

    /// Bindings that fire for this event by state: same gesture id, and a listed state (or, with no
    /// states given, the gesture's completion: recognized or ended). Stepped bindings never do.
    public static func matching(_ bindings: [Binding], _ event: GestureEvent) -> [Binding] {
        bindings.filter { firesByState($0, event) }
    }

    static func firesByState(_ binding: Binding, _ event: GestureEvent) -> Bool {
        guard binding.gesture == event.gesture, binding.every == nil else { return false }
        if binding.states.isEmpty { return event.state == .recognized || event.state == .ended }
        return binding.states.contains(event.state)
    }

    /// Fires every binding this event concerns.
    public func handle(_ event: GestureEvent, now: Int64 = monotonicMicroseconds()) {
        for (index, binding) in bindings.enumerated() where binding.gesture == event.gesture {
            if let measure = binding.every {
                let key = TrackerKey(binding: index, device: event.device)
                if event.state == .cancelled || event.state == .failed {
                    trackers[key] = nil
                    continue
                }
                if event.state == .began || trackers[key] == nil {
                    trackers[key] = StepTracker(measure: measure, unitsPerMM: unitsPerMM(event.device))
                }
                let steps = trackers[key]?.update(event) ?? 0
                if event.state == .ended || event.state == .recognized { trackers[key] = nil }
                for _ in 0..<abs(steps) { fire(index, binding, event, step: steps > 0 ? 1 : -1, now: now) }
            } else if Self.firesByState(binding, event) {
                fire(index, binding, event, step: nil, now: now)
            }
        }
    }

    private func fire(_ index: Int, _ binding: Binding, _ event: GestureEvent, step: Int?, now: Int64) {
        if binding.cooldown > 0, let last = lastRun[index], Double(now - last) < binding.cooldown * 1000 {
            cooledDownCount += 1
            logger.debug("binding within its cooldown; skipped", metadata: ["gesture": "\(binding.gesture)"])
            return
        }
        lastRun[index] = now
        let combos: [KeyCombo]
        if let step, binding.keys.isEmpty {
            combos = step > 0 ? binding.keysIncrease : binding.keysDecrease
        } else {
            combos = binding.keys
        }
        let window = Self.window(of: event)
        if let dryRun {
            let environment = binding.command == nil ? [:]
                : BindingExecutor.runEnvironment(Self.environment(for: event), step: step, triggers: 1, steps: step ?? 0) ?? [:]
            dryRun(BindingFiring(gesture: binding.gesture, index: index, step: step, keys: combos,
                                 command: binding.command, environment: environment, time: event.time,
                                 action: binding.action, window: binding.action == nil ? nil : window))
            return
        }
        if let action = binding.action {
            if let window {
                if !sendWindowAction(action.line(window: window, gesture: binding.gesture)) {
                    logger.notice("no desktop bridge is connected to do the binding's window action", metadata: [
                        "gesture": "\(binding.gesture)", "action": "\(action.text)", "window": "\(window)"])
                }
            } else {
                logger.notice("the binding's window action has no window: its gesture is not over one", metadata: [
                    "gesture": "\(binding.gesture)", "action": "\(action.text)", "region": "\(event.region)"])
            }
        }
        if !combos.isEmpty { keyboard.send(combos, gesture: binding.gesture) }
        if let command = binding.command {
            executor.submit(BindingExecutor.Job(
                id: .init(generation: generation, index: index), gesture: binding.gesture, command: command,
                timeout: binding.timeout, environment: Self.environment(for: event), step: step), now: now)
        }
    }

    /// The compositor's id of the window whose region the event's gesture is on, or nil.
    static func window(of event: GestureEvent) -> String? {
        let region = event.region
        guard region.hasPrefix(DesktopRegions.windowPrefix) else { return nil }
        return String(region.dropFirst(DesktopRegions.windowPrefix.count))
    }

    /// The GESTURE_* variables for an event (GESTURE_STEP and GESTURE_STEPS are added per run).
    public static func environment(for event: GestureEvent) -> [String: String] {
        var env: [String: String] = [
            "GESTURE_ID": event.gesture,
            "GESTURE_KIND": event.kind.rawValue,
            "GESTURE_STATE": event.state.rawValue,
            "GESTURE_FINGERS": String(event.fingers),
            "GESTURE_REGION": event.region,
            "GESTURE_DEVICE": event.device,
            "GESTURE_TIME": JSONLine.number(event.time.seconds),
        ]
        if let d = event.direction { env["GESTURE_DIRECTION"] = d.rawValue }
        if let s = event.scale { env["GESTURE_SCALE"] = JSONLine.number(s) }
        if let r = event.rotation { env["GESTURE_ROTATION"] = JSONLine.number(r) }
        if let t = event.translation {
            env["GESTURE_TRANSLATION_X"] = JSONLine.number(t.x)
            env["GESTURE_TRANSLATION_Y"] = JSONLine.number(t.y)
        }
        if let l = event.location {
            env["GESTURE_X"] = JSONLine.number(l.x)
            env["GESTURE_Y"] = JSONLine.number(l.y)
        }
        if let taps = event.taps { env["GESTURE_TAPS"] = String(taps) }
        return env
    }

    // MARK: the loop's view

    public func reap(now: Int64 = monotonicMicroseconds()) { executor.reap(now: now) }
    /// The commands finished after the first `count` of all finished since start (at most the last 256).
    func completions(after count: Int) -> ArraySlice<BindingExecutor.Completion> {
        let new = min(max(0, executor.completedCount - count), executor.completions.count)
        return executor.completions.suffix(new)
    }
    var completedCount: Int { executor.completedCount }
    public func enforceTimeouts(now: Int64 = monotonicMicroseconds()) { executor.enforceTimeouts(now: now) }
    public var nextDeadline: Int64? { executor.nextDeadline }
    public var runningCount: Int { executor.runningCount }
    public var queuedCount: Int { executor.queuedCount }

    /// Fields for the status reply.
    var statusFields: [(String, String)] {
        [("bindingsRunning", String(executor.runningCount)),
         ("bindingsQueued", String(executor.queuedCount)),
         ("bindingsCoalesced", String(executor.coalescedCount)),
         ("bindingsCooledDown", String(cooledDownCount)),
         ("keyboard", keyboard.statusJSON)]
    }
}
