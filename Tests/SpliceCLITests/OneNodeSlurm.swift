import Foundation
import SpliceTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A one-node Slurm cluster started in user space for one test, as root without systemd (the recipe measured in
/// /work/shared/CAPTURE-CLUSTER-NOTES.md): its own `munged` (run as the munge user, with its own key, socket, pid and
/// log in the scratch directory, so a machine's own munge is untouched), `slurmctld -D` and `slurmd -D` reading a
/// `slurm.conf` written into the scratch directory (`SLURM_CONF`: pass ``environment`` to every client), on two free
/// TCP ports. ``stop()`` cancels what is left in its queue and stops every daemon it started, by PID.
final class OneNodeSlurm: @unchecked Sendable {
    /// Why Slurm cannot run here at all (the only case in which the suite is skipped, with one visible line).
    struct Unavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// A daemon that was installed and allowed to run but did not come up: a test failure, not a skip.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The scratch directory holding the configuration, state, spool, logs and munge's files.
    let scratch: ScratchDirectory
    /// `SLURM_CONF` for the clients (`sbatch`, `squeue`, `scontrol`, `sinfo`) and for the jobs they submit.
    var environment: [String: String] { ["SLURM_CONF": scratch.file("slurm.conf").path] }
    private var daemons: [(name: String, process: ChildProcess)] = []

    /// The daemons the cluster needs, found on the PATH or in /usr/sbin.
    static let executables = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo", "scancel", "setpriv"]

    private init(scratch: ScratchDirectory) {
        self.scratch = scratch
    }

    /// Starts munged, slurmctld and slurmd and waits (at most `timeout` s) until `sinfo` shows the node idle.
    /// - Throws: ``Unavailable`` when not root or a program is missing; ``StartFailure`` naming the daemon and its
    ///   log's end when one does not come up (everything started is stopped first).
    static func start(timeout: Double = 120) async throws -> OneNodeSlurm {
        guard getuid() == 0 else { throw Unavailable(reason: "it needs root (munged, slurmd) and runs as uid \(getuid())") }
        for name in executables where find(name) == nil {
            throw Unavailable(reason: "\(name) is not installed")
        }
        guard let munge = getpwnam("munge") else { throw Unavailable(reason: "there is no munge user") }
        let (mungeUID, mungeGID) = (munge.pointee.pw_uid, munge.pointee.pw_gid)

        let cluster = OneNodeSlurm(scratch: try ScratchDirectory("slurm"))
        do {
            try await cluster.launch(mungeUID: mungeUID, mungeGID: mungeGID, timeout: timeout)
        } catch {
            cluster.stop()
            throw error
        }
        return cluster
    }

    private func launch(mungeUID: uid_t, mungeGID: gid_t, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        let fm = FileManager.default
        // munged checks that every directory up to its socket is searchable by all, and that its key is private.
        chmod(scratch.url.path, 0o755)
        let mungeDirectory = scratch.file("munge")
        for name in ["munge", "state", "spool", "log"] {
            try fm.createDirectory(at: scratch.file(name), withIntermediateDirectories: true)
        }
        chmod(mungeDirectory.path, 0o755)
        var key = [UInt8](repeating: 0, count: 1024)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        let keyURL = try scratch.write("munge/munge.key", Data(key))
        chmod(keyURL.path, 0o600)
        guard chown(mungeDirectory.path, mungeUID, mungeGID) == 0, chown(keyURL.path, mungeUID, mungeGID) == 0 else {
            throw StartFailure(description: "cannot give \(mungeDirectory.path) to the munge user: \(String(cString: strerror(errno)))")
        }
        let socket = mungeDirectory.appendingPathComponent("munge.socket").path
        try startDaemon("munged", find("setpriv") ?? "setpriv", [
            "--reuid=\(mungeUID)", "--regid=\(mungeGID)", "--clear-groups", find("munged") ?? "munged", "--foreground",
            "--socket=\(socket)", "--key-file=\(keyURL.path)", "--pid-file=\(mungeDirectory.path)/munged.pid",
            "--log-file=\(mungeDirectory.path)/munged.log", "--seed-file=\(mungeDirectory.path)/munged.seed",
        ])
        try await waitUntil(deadline, "munged did not create \(socket)") { fm.fileExists(atPath: socket) }

        let node = try await nodeLine(deadline: deadline)
        guard let hostName = node.split(separator: " ").first?.split(separator: "=").last.map(String.init),
              let ports = Self.freePorts(2) else {
            throw StartFailure(description: "cannot read the node name from `slurmd -C` (\(node)) or find two free ports")
        }
        try scratch.write("slurm.conf", configuration(host: hostName, node: node, socket: socket, ports: ports))
        try startDaemon("slurmctld", find("slurmctld") ?? "slurmctld", ["-D"])
        try startDaemon("slurmd", find("slurmd") ?? "slurmd", ["-D"])
        var lastState = ""
        do {
            try await waitUntil(deadline, "sinfo did not show the node idle") {
                let state = try await run("sinfo", ["-h", "-o", "%T"], deadline: max(deadline, Date().addingTimeInterval(10)))
                lastState = state.output.trimmingCharacters(in: .whitespacesAndNewlines)
                return state.status == 0 && lastState == "idle"
            }
        } catch let failure as StartFailure {
            // What the controller made of the node: its state and reason, and the controller's own log's end.
            let node = try await run("scontrol", ["show", "node"], deadline: Date().addingTimeInterval(10))
            throw StartFailure(description: "\(failure.description); last sinfo state '\(lastState)'; scontrol show node: "
                + "\(node.output.suffix(400)); slurmctld.log: \(logTail("slurmctld", file: "slurmctld.log"))")
        }
    }

    /// The `slurm.conf` of the one node: cons_tres on cores, no cgroups, no accounting, every path in the scratch
    /// directory, munge through the private socket, both daemons reached at 127.0.0.1 (a container's host name
    /// need not resolve).
    private func configuration(host: String, node: String, socket: String, ports: [UInt16]) -> String {
        let root = scratch.url.path
        return """
            # Written by the SpliceCLITests Slurm suite (OneNodeSlurm); removed with its scratch directory.
            ClusterName=splicetest
            SlurmctldHost=\(host)(127.0.0.1)
            SlurmUser=root
            SlurmctldPort=\(ports[0])
            SlurmdPort=\(ports[1])
            AuthType=auth/munge
            AuthInfo=socket=\(socket)
            CredType=cred/munge
            MpiDefault=none
            StateSaveLocation=\(root)/state
            SlurmdSpoolDir=\(root)/spool
            SlurmctldPidFile=\(root)/slurmctld.pid
            SlurmdPidFile=\(root)/slurmd.pid
            SlurmctldLogFile=\(root)/log/slurmctld.log
            SlurmdLogFile=\(root)/log/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core
            ReturnToService=2
            # A registration lost while the machine is loaded (the parallel test run) is retried at the next ping,
            # every SlurmdTimeout / 3 s: 10 s here rather than the default 100 s; RPCs get 30 s, not 10.
            SlurmdTimeout=30
            MessageTimeout=30
            MinJobAge=600
            \(node) NodeAddr=127.0.0.1 State=UNKNOWN
            PartitionName=splice Nodes=\(host) Default=YES MaxTime=INFINITE State=UP

            """
    }

    /// `slurmd -C`'s first line (`NodeName=… CPUs=… RealMemory=…`): this machine as Slurm sees it.
    private func nodeLine(deadline: Date) async throws -> String {
        let result = try await run("slurmd", ["-C"], deadline: deadline)
        guard result.status == 0, let line = result.output.split(separator: "\n").first(where: { $0.hasPrefix("NodeName=") }) else {
            throw StartFailure(description: "slurmd -C failed (\(result.status)): \(result.output)")
        }
        return String(line)
    }

    private func startDaemon(_ name: String, _ executable: String, _ arguments: [String]) throws {
        let log = scratch.file("log/\(name).out")
        let process = try ChildProcess(executable: executable, arguments: arguments, environment: environment,
                                       standardOutput: log, standardError: log)
        daemons.append((name, process))
    }

    /// Polls `condition` every 50 ms until it holds; fails when a daemon exited or at `deadline`, with its log's end.
    private func waitUntil(_ deadline: Date, _ what: String, _ condition: () async throws -> Bool) async throws {
        while try await !condition() {
            if let dead = daemons.first(where: { !$0.process.isRunning }) {
                throw StartFailure(description: "\(dead.name) exited (status \(dead.process.exitCode ?? -1)): \(logTail(dead.name))")
            }
            // Past the deadline, one more look: beside the whole parallel suite this task can resume long after its
            // sleep, with only a few checks made in the whole time.
            if Date() >= deadline, try await !condition() {
                throw StartFailure(description: "\(what) in time; " + daemons.map { "\($0.name): \(logTail($0.name))" }.joined(separator: "; "))
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    /// The last lines a daemon wrote.
    func logTail(_ name: String, file: String? = nil) -> String {
        let text = TextFile.text(of: scratch.file("log/\(file ?? name + ".out")"))
        return String(text.suffix(400))
    }

    /// Runs a Slurm client with ``environment`` and waits for it until `deadline`.
    /// - Returns: its exit status (-1 when killed at the deadline) and its standard output and error together.
    func run(_ name: String, _ arguments: [String], deadline: Date) async throws -> (status: Int32, output: String) {
        let output = scratch.file("log/client-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try ChildProcess(executable: find(name) ?? name, arguments: arguments, environment: environment,
                                       standardOutput: output, standardError: output)
        if !(await process.wait(seconds: max(0.5, deadline.timeIntervalSinceNow))) {
            process.stop()
            return (-1, "\(name) \(arguments.joined(separator: " ")) did not finish before the deadline")
        }
        return (process.exitCode ?? -1, TextFile.text(of: output))
    }

    /// Cancels every job left in this cluster's queue, waits (at most 5 s) for it to empty, then stops slurmd,
    /// slurmctld and munged by their PIDs (SIGTERM, SIGKILL after 3 s) and removes the scratch directory.
    func stop() {
        if daemons.contains(where: { $0.name == "slurmd" && $0.process.isRunning }) {
            let cancel = try? ChildProcess(executable: find("scancel") ?? "scancel", arguments: ["--user=root"], environment: environment)
            _ = cancel?.waitBlocking(seconds: 5)
            cancel?.stop()
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, jobsRemain() { usleep(100_000) }
        }
        for daemon in daemons.reversed() {
            daemon.process.send(SIGTERM)
            if !daemon.process.waitBlocking(seconds: 3) { daemon.process.stop() }
        }
        daemons = []
        scratch.remove()
    }

    /// True while `squeue` lists a job (or cannot be asked).
    private func jobsRemain() -> Bool {
        let output = scratch.file("log/squeue-stop.out")
        defer { try? FileManager.default.removeItem(at: output) }
        guard let squeue = try? ChildProcess(executable: find("squeue") ?? "squeue", arguments: ["-h"], environment: environment,
                                             standardOutput: output) else { return false }
        guard squeue.waitBlocking(seconds: 3), squeue.exitCode == 0 else {
            squeue.stop()
            return false
        }
        return !TextFile.text(of: output).isEmpty
    }

    /// `count` distinct TCP ports that are free now (bound to port 0, then released).
    static func freePorts(_ count: Int) -> [UInt16]? {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
                }
            }
            guard ok else { return nil }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }

    /// `name` on the PATH, or in /usr/sbin and /sbin (the daemons' place, not always on a user's PATH).
    static func find(_ name: String) -> String? { Executable.find(name, extraDirectories: ["/usr/sbin", "/sbin"]) }

    private func find(_ name: String) -> String? { Self.find(name) }

    /// Prints the one visible line saying the Slurm suite did not run, why, and how to enable it.
    static func reportSkip(_ error: Error) {
        print("⚠︎ SpliceCLITests: the Slurm end-to-end suite SKIPPED: \(error). Install Slurm and munge with ./scripts/setup "
              + "(scripts/packages/slurm.list) and run the tests as root; CI does both, so there this suite runs.")
    }
}
