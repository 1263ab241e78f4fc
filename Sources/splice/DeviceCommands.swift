import Foundation
import Splice

/// `splice devices [--json] [--watch]` and `splice repair MOVIE`.
enum DeviceCommands {
    /// One device as `--json` prints it.
    struct DeviceSummary: Codable {
        var uniqueID: String
        var name: String
        var type: String
        var mediaTypes: [String]
        var position: String
        var virtual: Bool
        var formats: [String]
    }

    static func devices(_ arguments: CommandLineArguments) async throws(CommandExit) {
        if arguments.has("watch") { return await watch(arguments) }
        let devices = CaptureDevice.DiscoverySession().devices
        if arguments.has("json") {
            let summaries = devices.map { device in
                DeviceSummary(uniqueID: device.uniqueID, name: device.localizedName, type: device.deviceType.rawValue,
                              mediaTypes: device.mediaTypes.map(\.rawValue).sorted(), position: device.position.rawValue,
                              virtual: device.isVirtual, formats: device.formats.map(\.description))
            }
            do { Console.out(try JSONText.pretty(summaries)) } catch {
                Console.error("splice: cannot write JSON: \(error)")
                throw CommandExit(status: .invalidInput)
            }
            return
        }
        for device in devices {
            let media = device.mediaTypes.map(\.rawValue).sorted().joined(separator: "+")
            Console.out("\(device.uniqueID)\t\(media)\t\(device.localizedName)\(device.isVirtual ? " [virtual]" : "")")
            for format in device.formats.prefix(8) { Console.out("    \(format)") }
            if device.formats.count > 8 { Console.out("    … \(device.formats.count - 8) more formats") }
        }
    }

    /// `--watch`: one line per device connected or disconnected (``CaptureDevice/connectionEvents(pollInterval:)``)
    /// until SIGINT or SIGTERM, then exit 0. `--json` makes each line a JSON object (`event`, `uniqueID`, `name`).
    static func watch(_ arguments: CommandLineArguments) async {
        let events = CaptureDevice.connectionEvents()
        let stop = Task {
            // Ended by a signal: the stream's consumer below stops, which ends the watcher thread.
            while !Task.isCancelled { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        let signals = SignalCancellation { stop.cancel() }
        defer { signals.restore() }
        Console.error("splice: watching for devices (Ctrl-C stops)")
        let json = arguments.has("json")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    if json {
                        let kind: String
                        if case .connected = event { kind = "connected" } else { kind = "disconnected" }
                        let line = (try? JSONText.compact(["event": kind, "uniqueID": event.device.uniqueID,
                                                           "name": event.device.localizedName])) ?? ""
                        Console.out(line)
                    } else {
                        Console.out(event.description)
                    }
                }
            }
            _ = await stop.result
            group.cancelAll()
        }
    }

    static func repair(_ arguments: CommandLineArguments) throws(CommandExit) {
        guard let path = arguments.operands.first else { throw CommandExit(status: .usage) }
        do {
            let report = try MovieFileRepair.repair(at: URL(fileURLWithPath: path))
            if report.wasRepaired {
                Console.out("\(path): cut a torn fragment: kept \(report.keptSize) of \(report.originalSize) bytes, "
                            + "\(report.completeFragments) complete fragments")
            } else {
                Console.out("\(path): complete (\(report.completeFragments) fragments, \(report.originalSize) bytes); left as it was")
            }
        } catch {
            Console.error("splice repair: \(error)")
            throw CommandExit(status: .invalidInput)
        }
    }
}
