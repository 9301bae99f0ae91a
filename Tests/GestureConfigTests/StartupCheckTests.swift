import Testing
@testable import GestureConfig

/// What would stop the daemon starting, decided from the loaded file and a described machine.
@Suite struct StartupCheckTests {
    /// A machine: groups and users by name, directories and which of them the user may write.
    static func host(uid: UInt32 = 0, groups: Set<UInt32> = [0], groupNames: [String: UInt32] = ["input": 104],
                     users: [String: UInt32] = ["root": 0], directories: Set<String> = ["/", "/run", "/tmp"],
                     writable: Set<String> = ["/run", "/tmp"]) -> HostFacts {
        HostFacts(uid: uid, groups: groups, groupID: { groupNames[$0] }, userID: { users[$0] },
                  isDirectory: { directories.contains($0) }, canCreateEntries: { writable.contains($0) })
    }

    static func problems(_ yaml: String, host: HostFacts, socket: String? = nil) throws -> [String] {
        let configuration = try ConfigurationLoader.parse(yaml, file: "g.yaml")
        return StartupCheck.problems(configuration, socketPath: socket ?? configuration.socket.path ?? "/run/gestured/gestured.sock",
                                     socketPathFromCommandLine: socket != nil, host: host).map(\.description)
    }

    static let readmeSocket = "version: 1\nsocket: { path: /run/gestured/gestured.sock, mode: \"0660\", group: gestured }\n"

    @Test func aGroupThatDoesNotExistIsOneErrorAtItsValueWithHowToCreateIt() throws {
        let found = try Self.problems(Self.readmeSocket, host: Self.host())
        #expect(found == ["g.yaml:2:67: socket group 'gestured' does not exist on this machine: create it with "
                          + "`sudo groupadd --system gestured` (installing the gestured package does), or remove 'group'"])
        #expect(try Self.problems(Self.readmeSocket, host: Self.host(groupNames: ["gestured": 990])).isEmpty)
    }

    @Test func aUserOtherThanRootMustBeInTheGroupAndCannotGiveTheSocketAway() throws {
        let member = Self.host(uid: 1000, groups: [1000, 990], groupNames: ["gestured": 990],
                               directories: ["/", "/run", "/run/gestured"], writable: ["/run/gestured"])
        #expect(try Self.problems(Self.readmeSocket, host: member).isEmpty)
        var outsider = member
        outsider.groups = [1000]
        let found = try Self.problems(Self.readmeSocket, host: outsider)
        #expect(found.count == 1)
        #expect(found.first?.contains("socket group 'gestured': uid 1000 is not a member") == true, "\(found)")
        #expect(found.first?.contains("sudo usermod -aG gestured $USER") == true, "\(found)")

        let owned = "socket: { path: /run/gestured/g.sock, owner: root }\n"
        #expect(try Self.problems(owned, host: member).first?.contains(
            "g.yaml:1:46: socket owner 'root': only root can give the socket to another user") == true)
        #expect(try Self.problems("socket: { owner: nobody9 }\n", host: Self.host()).first?.contains(
            "socket owner 'nobody9': no such user on this machine") == true)
        #expect(try Self.problems("socket: { owner: \"0\", group: \"104\" }\n", host: Self.host()).isEmpty)
    }

    @Test func theSocketDirectoryMustExistOrBeCreatableOneLevelDown() throws {
        let user = Self.host(uid: 1000, groups: [1000], directories: ["/", "/run", "/run/user/1000", "/run/user"],
                             writable: ["/run/user/1000"])
        let system = "socket: { path: /run/gestured/gestured.sock }\n"
        #expect(try Self.problems(system, host: user) == [
            "g.yaml:1:17: socket directory '/run/gestured' does not exist and uid 1000 cannot create it in '/run': "
            + "run as root, set 'path' in 'socket', or pass --socket (e.g. $XDG_RUNTIME_DIR/gestured/gestured.sock)"])
        #expect(try Self.problems(system, host: user, socket: "/run/user/1000/gestured/gestured.sock").isEmpty)
        #expect(try Self.problems(system, host: user, socket: "/run/user/1000/a/b/g.sock") == [
            "--socket: socket directory '/run/user/1000/a/b' does not exist, nor does '/run/user/1000/a' "
            + "(gestured creates one directory level): choose another --socket"])
        #expect(try Self.problems("socket: { path: /run/user/g.sock }\n", host: user).first?.contains(
            "socket directory '/run/user' is not writable by uid 1000") == true)
        #expect(try Self.problems(system, host: Self.host()).isEmpty)
        let long = "/tmp/" + String(repeating: "x", count: 103)
        #expect(try Self.problems(system, host: Self.host(), socket: long).first?.contains(
            "is 108 bytes, more than the 107 a Unix socket address holds") == true)
        #expect(try Self.problems(system, host: user, socket: "@gestured").isEmpty)
    }

    @Test func theEmbeddedDefaultStartsAsRootOnAPlainMachine() {
        let configuration = ConfigurationLoader.loadDefault()
        #expect(StartupCheck.problems(configuration, socketPath: configuration.socket.path ?? "/run/gestured/gestured.sock",
                                      socketPathFromCommandLine: false, host: Self.host()).isEmpty)
    }
}
