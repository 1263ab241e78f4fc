// swift-tools-version:6.0
// An example package that uses Splice as a dependency (by path, as an app's own package would by URL): a
// reader → writer transcode loop with a bit rate. Built by scripts/check-examples, so depending on Splice stays proven.
import PackageDescription

let package = Package(
    name: "transcode-loop",
    dependencies: [
        .package(name: "Splice", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "transcode-loop", dependencies: [.product(name: "Splice", package: "Splice")]),
    ]
)
