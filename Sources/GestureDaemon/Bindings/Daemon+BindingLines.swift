import GestureCore

/// The `binding` line (docs/protocol.md, "Explain lines"): each binding command that finished, told
/// to the clients that asked for explain lines, so a client can show what a gesture made happen
/// (`gesturectl explain`, the view's timeline).
extension Daemon {
    func tellBindingRuns() {
        let finished = bindings.completions(after: bindingRunsTold)
        bindingRunsTold = bindings.completedCount
        for run in finished {
            var j = JSONLine()
            j.add("type", "binding")
            j.add("gesture", run.gesture)
            j.add("command", run.command)
            if let status = run.exitStatus { j.add("status", Int(status)) } else { j.addRaw("status", "null") }
            if let signal = run.signal { j.add("signal", Int(signal)) }
            if run.timedOut { j.add("timed-out", true) }
            j.add("steps", run.steps)
            j.add("ms", Int(run.milliseconds))
            hub.sendToExplaining(j.line)
        }
    }
}
