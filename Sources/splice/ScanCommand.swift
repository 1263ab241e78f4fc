import Foundation
import Splice

/// `splice scan FILE [--types T,…] [--rect x,y,w,h] [--every T]`: the machine-readable codes in a movie's pictures
/// (or a document's rendered frames), one JSON line per code found.
enum ScanCommand {
    /// One code as a JSON line: the picture's time (seconds), the type's name, the text, the corners (normalised
    /// x, y pairs, in the code's order).
    struct Line: Encodable {
        var time: Double
        var type: String
        var value: String?
        var corners: [[Double]]
    }

    static func run(_ arguments: CommandLineArguments) async throws(CommandExit) {
        let path = arguments.operands[0]
        let scanner = try settings(arguments)
        let stream: AsyncThrowingStream<AssetCodeScanner.ScannedPicture, any Error>
        if path.hasSuffix(".json") || path.hasSuffix(".otio") {
            let loaded = try await DocumentLoading.load(path, dropsUnsupportedEffects: arguments.has("drop-unsupported-effects"))
            stream = scanner.pictures(in: loaded.composition, videoComposition: loaded.videoComposition)
        } else {
            let asset: Asset
            do { asset = try await Asset.load(from: URL(fileURLWithPath: path)) } catch {
                Console.error("splice: \(path): \(error)")
                throw CommandExit(status: .invalidInput, detail: "\(path): \(error)")
            }
            stream = scanner.pictures(in: asset)
        }
        let task = Task {
            var (pictures, codes) = (0, 0)
            for try await picture in stream {
                pictures += 1
                for code in picture.codes {
                    codes += 1
                    let line = Line(time: code.time.seconds, type: code.type.rawValue, value: code.stringValue,
                                    corners: code.corners.map { [$0.x, $0.y] })
                    Console.out(try JSONText.compact(line))
                }
            }
            return (pictures, codes)
        }
        let signals = SignalCancellation { task.cancel() }
        defer { signals.restore() }
        do {
            let (pictures, codes) = try await task.value
            Console.error("splice: \(path): \(codes) code\(codes == 1 ? "" : "s") in \(pictures) scanned picture\(pictures == 1 ? "" : "s")")
        } catch is CancellationError {
            Console.error("splice: cancelled")
            throw CommandExit(status: .cancelled)
        } catch let error as CodeScanError {
            Console.error("splice: \(path): \(error)")
            throw CommandExit(status: .invalidInput, detail: "\(error)")
        } catch {
            Console.error("splice: \(path): \(error)")
            throw CommandExit(status: .renderFailed, detail: "\(error)")
        }
    }

    /// The scanner the options ask for: `--types` (default every type the linked libzbar reads), `--rect`
    /// (normalised x,y,width,height), `--every` (the least time between scanned pictures).
    /// - Throws: a usage exit naming a type that is not known or not readable, a rect that does not parse or is not
    ///   inside 0…1, an interval that is not a time.
    static func settings(_ arguments: CommandLineArguments) throws(CommandExit) -> AssetCodeScanner {
        var types = CaptureMetadataOutput().availableMetadataObjectTypes
        if let text = arguments.value("types") {
            types = []
            for name in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard let type = MetadataObjectType(rawValue: name) else {
                    let known = MetadataObjectType.allCases.map(\.rawValue).joined(separator: ", ")
                    throw Usage.fail("--types: unknown type '\(name)' (known: \(known))", command: .scan)
                }
                types.append(type)
            }
        }
        var rect = Rect(x: 0, y: 0, width: 1, height: 1)
        if let text = arguments.value("rect") {
            let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard values.count == 4, let x = values[0], let y = values[1], let width = values[2], let height = values[3] else {
                throw Usage.fail("--rect takes x,y,width,height as four numbers (normalised 0…1), not '\(text)'", command: .scan)
            }
            rect = Rect(x: x, y: y, width: width, height: height)
        }
        var interval = MediaTime.zero
        if let text = arguments.value("every") {
            do { interval = try TimeSyntax.parse(text) } catch {
                throw Usage.fail("--every: \(error)", command: .scan)
            }
        }
        do {
            return try AssetCodeScanner(metadataObjectTypes: types, rectOfInterest: rect, minimumScanInterval: interval)
        } catch {
            let option: String
            switch error {
            case .unsupportedType, .noTypes: option = "--types"
            case .rectOfInterestOutOfRange: option = "--rect"
            default: option = "--every"
            }
            throw Usage.fail("\(option): \(error)", command: .scan)
        }
    }
}
