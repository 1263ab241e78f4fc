import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// TCP ports on 127.0.0.1 for the servers tests start in user space.
package enum LoopbackPort {
    /// A TCP port nothing listens on now (the kernel's pick for port 0, released again).
    package static func free() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                _ = bind(socket, pointer, length)
                return getsockname(socket, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    package static func isListening(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// True when a socket listens on TCP `port` (IPv4), read from `/proc/net/tcp` without connecting: a one-shot
    /// server (`ffmpeg -listen 1`) would take a probing connection for its client.
    package static func hasListener(_ port: Int) -> Bool {
        guard let table = try? TextFile.read(URL(fileURLWithPath: "/proc/net/tcp")) else { return false }
        let local = String(format: ":%04X", port)
        // Columns: sl, local_address (hex ip:port), rem_address, st (0A = LISTEN), …
        return table.split(separator: "\n").dropFirst().contains { line in
            let columns = line.split(separator: " ")
            return columns.count > 3 && columns[1].hasSuffix(local) && columns[3] == "0A"
        }
    }
}
