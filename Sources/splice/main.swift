import Foundation
import Splice

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--version") {
    print("splice 0.1.0")
    print(MediaLibrary.report)
    exit(0)
}
print("splice 0.1.0 — the export engine is not built yet; linked FFmpeg:")
print(MediaLibrary.report)
