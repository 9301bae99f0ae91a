import Foundation
import Testing

/// The package carries every doc the README names, at the README's own paths beside it and as
/// Markdown (scripts/test-package checks the built .deb the same way; this is the quick check).
@Suite struct PackageDocsTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: Paths.packageRoot + "/" + path, encoding: .utf8)
    }

    @Test func everyDocTheReadmeNamesIsInstalledAtItsPathUncompressed() throws {
        let named = Set(try Self.read("README.md").matches(of: /docs\/[a-z-]+\.md/).map { String($0.output) })
        #expect(named.count >= 10, "\(named)")
        let listed = try Self.read("debian/gestured.docs").split(separator: "\n").map(String.init)
        for doc in named.sorted() {
            #expect(FileManager.default.fileExists(atPath: Paths.packageRoot + "/" + doc), "README names \(doc), which is not there")
        }
        // dh_installdocs installs a listed directory whole, under its own name (a listed file would
        // lose its `docs/`).
        #expect(listed.contains("docs"), "debian/gestured.docs: \(listed)")
        #expect(listed.contains("README.md"))
        let compress = try #require(try Self.read("debian/rules").split(separator: "\n").first { $0.contains("dh_compress ") })
        #expect(compress.contains("-X.md") && compress.contains("-X/gestured/docs/"), "the docs would be *.md.gz: \(compress)")
    }
}
