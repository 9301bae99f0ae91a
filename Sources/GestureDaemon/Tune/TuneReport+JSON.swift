import GestureCore
import GestureTuning

extension TuneReport {
    /// The report as one JSON object (docs/tune.md, "JSON"): the same facts as the text.
    public func jsonLine(written: String? = nil) -> String {
        var j = JSONLine()
        j.add("type", "tune")
        j.add("noise", noise)
        j.add("noiseFloor", noiseFloor)
        var right = JSONLine()
        right.add("samples", samples.count)
        right.add("before", rightBefore)
        right.add("after", rightAfter)
        right.add("leftOut", rightLeftOut)
        j.addRaw("right", right.line)
        j.addRaw("samples", "[" + samples.map(sampleJSON).joined(separator: ",") + "]")
        j.addRaw("thresholds", "[" + proposals.map(proposalJSON).joined(separator: ",") + "]")
        j.addRaw("conflicts", "[" + conflicts.map { c in
            var o = JSONLine()
            o.add("gesture", c.gesture)
            o.add("rival", c.rival)
            o.add("key", c.parameter.key)
            o.add("message", c.message)
            return o.line
        }.joined(separator: ",") + "]")
        if let written { j.add("written", written) }
        return j.line
    }

    func sampleJSON(_ s: Sample) -> String {
        var o = JSONLine()
        o.add("name", s.name)
        o.add("label", s.label)
        o.add("rightBefore", s.rightBefore)
        o.add("rightAfter", s.rightAfter)
        o.add("rightLeftOut", s.rightLeftOut)
        if let r = s.reasonBefore { o.add("reasonBefore", r) }
        if let r = s.reasonAfter { o.add("reasonAfter", r) }
        let m = s.measurements
        var measures = JSONLine()
        measures.add("fingers", m.fingers)
        measures.add("presses", m.presses.count)
        measures.add("duration", m.duration)
        measures.add("movement", m.movement)
        measures.add("travel", m.travel)
        measures.add("offAxis", m.offAxis)
        measures.add("spanChange", m.spanChange)
        measures.add("turn", m.turn)
        measures.add("landingSpread", m.presses.map(\.landingSpread).max() ?? 0)
        if let i = m.largestInterval { measures.add("tapInterval", i) }
        if let d = m.largestPressDistance { measures.add("tapDistance", d) }
        measures.add("hold", m.hold)
        measures.add("jitter", m.jitter)
        o.addRaw("measures", measures.line)
        return o.line
    }

    func proposalJSON(_ p: ThresholdProposal) -> String {
        var o = JSONLine()
        o.add("gesture", p.gesture)
        o.add("key", p.parameter.key)
        o.add("unit", p.parameter.unit.rawValue)
        o.add("current", p.current)
        o.add("proposed", p.proposed)
        if let f = p.fitted { o.add("fitted", f) }
        if let m = p.margin { o.add("margin", m) }
        switch p.outcome {
        case .kept: o.add("outcome", "kept")
        case .changed: o.add("outcome", "changed")
        case .conflict: o.add("outcome", "conflict")
        case .wouldBreak(let names):
            o.add("outcome", "would-break")
            o.addRaw("wouldBreak", "[" + names.map(JSONLine.quoted).joined(separator: ",") + "]")
        }
        o.add("saneMinimum", p.parameter.saneRange.lowerBound)
        o.add("saneMaximum", p.parameter.saneRange.upperBound)
        o.addRaw("own", "[" + p.own.map { JSONLine.number($0.value) }.joined(separator: ",") + "]")
        o.addRaw("rivals", "[" + p.rivals.map { r in
            var x = JSONLine()
            x.add("label", r.label)
            x.add("value", r.value)
            return x.line
        }.joined(separator: ",") + "]")
        o.addRaw("notes", "[" + p.notes.map(JSONLine.quoted).joined(separator: ",") + "]")
        return o.line
    }
}
