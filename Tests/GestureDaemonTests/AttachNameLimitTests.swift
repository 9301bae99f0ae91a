import GestureConfig
import GestureCore
import Logging
import Testing
@testable import GestureDaemon
@testable import GestureProtocol

/// Names are kept for the daemon's life (`InternedString`): a client cannot grow that table without
/// bound by attaching ever new ids, while ids seen before (a client that reconnects and attaches
/// its regions again) are always taken.
@Suite struct AttachNameLimitTests {
    static func attach(_ apps: AppRequests, _ pipeline: inout GesturePipeline, client: Int, region: String,
                       gesture: String) throws -> String {
        let line = #"{"request":"attach","parent":"screen","regions":{"id":"\#(region)","frame":[0,0,10,10]},"#
            + #""gestures":[{"id":"\#(gesture)","kind":"tap"}]}"#
        let request = try ClientRequest.parse(line).get()
        return apps.answer(request, client: ClientInfo(id: client, pid: 1, uid: 0), pipeline: &pipeline,
                           devices: [], at: .zero).reply
    }

    @Test func idsNeverSeenAreRefusedOnceTheTableIsFullAndSeenOnesAreTaken() throws {
        let apps = AppRequests(settings: SocketSettings(), logger: Logger(label: "test"))
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: EngineConfiguration(
            root: RegionSpec(id: "screen"), recognizers: [])))
        // Seen: attached once with room to spare.
        let first = try Self.attach(apps, &pipeline, client: 1, region: "name-limit-area", gesture: "name-limit-tap")
        #expect(first.contains(#""ok":true"#), "\(first)")
        // Full: the table may not grow by one more (other tests may add names meanwhile: it only grows).
        apps.nameLimit = InternedString.count
        let refused = try Self.attach(apps, &pipeline, client: 2, region: "name-limit-never-seen", gesture: "name-limit-tap")
        #expect(refused.contains("limit: the daemon keeps at most"), "\(refused)")
        #expect(refused.contains("this would add 1 it has not seen"), "\(refused)")
        #expect(!pipeline.engine.hasRegion("2:name-limit-never-seen"))
        #expect(InternedString.unseen(["name-limit-never-seen"]) == 1, "a refused id is not kept")
        // The same ids as before, by another client (or the same one, reconnected): taken.
        let again = try Self.attach(apps, &pipeline, client: 3, region: "name-limit-area", gesture: "name-limit-tap")
        #expect(again.contains(#""ok":true"#), "\(again)")
        #expect(pipeline.engine.hasRegion("3:name-limit-area"))
    }
}
