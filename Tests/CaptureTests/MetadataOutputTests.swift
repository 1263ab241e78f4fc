import Capture
import Composition
import Foundation
import SpliceTestSupport
import Testing

/// The metadata output over a virtual camera showing a picture made by the Python `qrcode` package (and an EAN-13
/// drawn bar by bar from the standard's tables) at known places: strings, corners, rect of interest, refusals.
@Suite("Capture metadata output: machine-readable codes", .serialized)
struct MetadataOutputTests {
    /// A code drawn into the test picture: its type, text and pixel rectangle (the symbol without quiet zone).
    struct DrawnCode: Decodable {
        var type: String
        var text: String
        var x: Double, y: Double, width: Double, height: Double
    }

    /// Draws the 640 × 480 test picture into `scratch` with the pinned Python verifiers: QR "Splice QR one" at
    /// (60, 40), 126 px (21 modules of 6 px); QR "second: ünïcode ✓ 2026" at (400, 250), 125 px (25 modules of 5
    /// px); EAN-13 4006381333931 at (40, 330), 95 modules of 3 px, 100 px high.
    static func drawCodes(in scratch: ScratchDirectory) async throws -> (URL, [DrawnCode]) {
        let url = scratch.file("codes.png")
        let printed = try await PythonVerifier.run(script, [url.path])
        return (url, try JSONDecoder().decode([DrawnCode].self, from: Data(printed.utf8)))
    }

    @Test("QR and EAN-13: exact strings, QR corners within 3 px of where they were drawn, bar code bounds on its bars",
          .enabled(if: PythonVerifier.isAvailable))
    func decodesDrawnCodes() async throws {
        let scratch = try ScratchDirectory("capture-codes")
        defer { scratch.remove() }
        let (image, drawn) = try await Self.drawCodes(in: scratch)
        #expect(drawn.map(\.text) == ["Splice QR one", "second: ünïcode ✓ 2026", "4006381333931"])
        let output = CaptureMetadataOutput()
        try output.setMetadataObjectTypes([.qr, .ean13])
        let stream = output.metadataObjects()
        let found = try await withRunningSession([try .virtualCamera(showingImageAt: image)], outputs: [output]) { _ in
            var latest: [String: MachineReadableCodeObject] = [:]
            for await codes in stream {
                for code in codes { latest[code.stringValue ?? ""] = code }
                if latest.count >= 3 { break }
            }
            return latest
        }
        #expect(Set(found.keys) == Set(drawn.map(\.text)))
        for code in drawn {
            let object = try #require(found[code.text], "\(code.text) not found")
            #expect(object.type.rawValue == code.type)
            // Session-clock time of a 30 fps picture: a whole number of frames (µs, rounded).
            let frames = object.time.seconds * 30
            #expect(object.time.timescale == 1_000_000 && abs(frames - frames.rounded()) < 0.001, "time \(object.time)")
            let pixels = object.corners.map { (x: $0.x * 640, y: $0.y * 480) }
            print("codes: \(code.type) '\(code.text)' at \(object.time.seconds) s, corners (px) \(pixels.map { "(\($0.x), \($0.y))" })")
            if code.type == "qr" {
                // Top left, bottom left, bottom right, top right of the outer modules, as drawn (upright).
                let expected = [(code.x, code.y), (code.x, code.y + code.height), (code.x + code.width, code.y + code.height),
                                (code.x + code.width, code.y)]
                #expect(pixels.count == 4)
                for (corner, wanted) in zip(pixels, expected) {
                    #expect(abs(corner.x - wanted.0) <= 3 && abs(corner.y - wanted.1) <= 3,
                            "\(code.text): corner \(corner), drawn at \(wanted)")
                }
            } else {
                // The scan lines cross the bars from the first to the last: the bounds' width is the bars', its
                // rows inside the bars' height.
                #expect(abs(object.bounds.minX * 640 - code.x) <= 3 && abs(object.bounds.maxX * 640 - (code.x + code.width)) <= 3,
                        "EAN-13 bounds \(pixels)")
                #expect(object.bounds.minY * 480 >= code.y - 1 && object.bounds.maxY * 480 <= code.y + code.height + 1,
                        "EAN-13 bounds \(pixels)")
            }
            let xs = object.corners.map(\.x), ys = object.corners.map(\.y)
            #expect(object.bounds == Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!))
        }
    }

    @Test("portrait connection: corners come in the turned picture (480 × 640), each where the quarter turn puts the drawn corner, in the code's own order",
          .enabled(if: PythonVerifier.isAvailable))
    func cornersFollowOrientation() async throws {
        let scratch = try ScratchDirectory("capture-codes-portrait")
        defer { scratch.remove() }
        let (image, drawn) = try await Self.drawCodes(in: scratch)
        let output = CaptureMetadataOutput()
        try output.setMetadataObjectTypes([.qr])
        let stream = output.metadataObjects()
        let found = try await withRunningSession([try .virtualCamera(showingImageAt: image)], outputs: [output],
                                                 prepare: { _ in output.connections.first?.videoOrientation = .portrait }) { _ in
            for await codes in stream where codes.contains(where: { $0.stringValue == "Splice QR one" }) {
                return codes.first { $0.stringValue == "Splice QR one" }
            }
            return nil
        }
        let code = try #require(found)
        let qr = try #require(drawn.first)
        // A quarter turn clockwise takes camera pixel (x, y) of the 640 × 480 picture to (480 − y, x).
        let landscape = [(qr.x, qr.y), (qr.x, qr.y + qr.height), (qr.x + qr.width, qr.y + qr.height), (qr.x + qr.width, qr.y)]
        let expected = landscape.map { (480 - $0.1, $0.0) }
        let pixels = code.corners.map { (x: $0.x * 480, y: $0.y * 640) }
        print("codes, portrait: corners (px) \(pixels.map { "(\($0.x), \($0.y))" }), expected \(expected)")
        #expect(pixels.count == 4)
        for (corner, wanted) in zip(pixels, expected) {
            #expect(abs(corner.x - wanted.0) <= 3 && abs(corner.y - wanted.1) <= 3, "corner \(corner), expected \(wanted)")
        }
    }

    @Test("rectOfInterest: only the code inside the bottom-right quarter is reported, over 15 scanned pictures",
          .enabled(if: PythonVerifier.isAvailable))
    func rectOfInterestExcludesOutside() async throws {
        let scratch = try ScratchDirectory("capture-codes-rect")
        defer { scratch.remove() }
        let (image, _) = try await Self.drawCodes(in: scratch)
        let output = CaptureMetadataOutput()
        try output.setMetadataObjectTypes([.qr, .ean13])
        try output.setRectOfInterest(Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        let stream = output.metadataObjects()
        let seen = try await withRunningSession([try .virtualCamera(showingImageAt: image)], outputs: [output]) { _ in
            var seen: [String] = []
            var pictures = 0
            for await codes in stream {
                seen += codes.compactMap(\.stringValue)
                pictures += 1
                if pictures == 15 { break }
            }
            return seen
        }
        #expect(seen.count == 15)
        #expect(Set(seen) == ["second: ünïcode ✓ 2026"])
        #expect(output.scannedFrameCount >= 15)
    }

    @Test("3 s of the moving test pattern: no code reported from over 20 scanned pictures")
    func noFalsePositivesOnTestPattern() async throws {
        let output = CaptureMetadataOutput()
        try output.setMetadataObjectTypes(output.availableMetadataObjectTypes)
        let stream = output.metadataObjects()
        let reported = try await withRunningSession([.virtualCamera(markerInterval: nil)], outputs: [output]) { _ in
            let collector = Task {
                var reported: [MachineReadableCodeObject] = []
                for await codes in stream { reported += codes }
                return reported
            }
            // Scanning for 3 s of pictures (at least 20 scanned however loaded the machine), then the session stops.
            let start = Date()
            while Date().timeIntervalSince(start) < 3 || output.scannedFrameCount < 20 {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            return collector
        }
        let codes = await reported.value
        #expect(codes.isEmpty, "reported \(codes.map { "\($0.type) \($0.stringValue ?? "")" })")
        #expect(output.scannedFrameCount >= 20)
    }

    @Test("scanning beside a 3 s recording never holds it: 90 pictures recorded, none dropped; every camera picture scanned or skipped",
          .enabled(if: PythonVerifier.isAvailable))
    func scanningBesideRecording() async throws {
        let scratch = try ScratchDirectory("capture-codes-recording")
        defer { scratch.remove() }
        let (image, _) = try await Self.drawCodes(in: scratch)
        let codes = CaptureMetadataOutput()
        try codes.setMetadataObjectTypes(codes.availableMetadataObjectTypes)
        let stream = codes.metadataObjects()
        let collector = Task {
            var found = 0
            for await batch in stream { found += batch.count }
            return found
        }
        let result = try await record([try .virtualCamera(showingImageAt: image)], to: scratch.file("beside.mp4"),
                                      beside: [codes]) { $0.maxRecordedDuration = MediaTime(seconds: 3) }
        let found = await collector.value
        #expect(result.error == .maximumDurationReached)
        #expect(result.recordedDuration == MediaTime(seconds: 3) && result.droppedFrameCount == 0)
        let movie = try decodeMovie(scratch.file("beside.mp4"), lumaStride: 8, keepsLastPicture: false)
        #expect(movie.frames.count == 90)
        let (scanned, skipped) = (codes.scannedFrameCount, codes.droppedFrameCount)
        print("codes beside a recording: \(scanned) pictures scanned, \(skipped) skipped, \(found) codes found")
        // Every scanned picture holds the three codes (the last one's may come after the stream ended); a loaded
        // machine scans fewer pictures, never a slower recording.
        #expect(scanned >= 3 && found >= 3 * (scanned - 1), "\(scanned) scanned, \(found) codes")
        // Every picture the camera delivered while the session ran (at least the 90 recorded) was scanned or skipped.
        #expect(scanned + skipped >= 90, "\(scanned) scanned + \(skipped) skipped")
    }

    @Test("bad settings are refused by name and change nothing: PDF417 (not decoded by libzbar), a rect outside 0…1")
    func refusesBadSettings() throws {
        let output = CaptureMetadataOutput()
        #expect(output.metadataObjectTypes.isEmpty)
        #expect(output.availableMetadataObjectTypes == [.qr, .ean13, .ean8, .upce, .code39, .code93, .code128, .interleaved2of5])
        try output.setMetadataObjectTypes([.qr])
        #expect(throws: CaptureMetadataError.unsupportedType(.pdf417)) { try output.setMetadataObjectTypes([.ean8, .pdf417]) }
        #expect(output.metadataObjectTypes == [.qr])
        let wide = Rect(x: 0.5, y: 0, width: 0.6, height: 1)
        #expect(throws: CaptureMetadataError.rectOfInterestOutOfRange(wide)) { try output.setRectOfInterest(wide) }
        #expect(throws: CaptureMetadataError.rectOfInterestOutOfRange(Rect(x: 0, y: 0, width: 0, height: 1))) {
            try output.setRectOfInterest(Rect(x: 0, y: 0, width: 0, height: 1))
        }
        #expect(output.rectOfInterest == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(CaptureMetadataError.unsupportedType(.pdf417).description
                == "metadata object type 'pdf417' cannot be read by the linked libzbar")
        #expect(throws: CaptureDeviceError.self) {
            try CaptureDevice.virtualCamera(showingImageAt: URL(fileURLWithPath: "/nonexistent/codes.png"))
        }
    }

    /// Draws the picture (see ``drawCodes(in:)``) to `sys.argv[1]` and prints the codes as JSON.
    static let script = #"""
import json, sys
import qrcode
from PIL import Image, ImageDraw

picture = Image.new("L", (640, 480), 255)
codes = []

def qr(text, x, y, box):
    code = qrcode.QRCode(border=0, box_size=box, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    image = code.make_image().convert("L")
    picture.paste(image, (x, y))
    codes.append({"type": "qr", "text": text, "x": x, "y": y, "width": image.size[0], "height": image.size[1]})

def ean13(digits, x, y, module, height):
    # EAN-13 (ISO/IEC 15420): guard, six digits in L/G sets by the first digit's parity, centre guard, six R digits.
    L = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
    R = ["".join("1" if b == "0" else "0" for b in p) for p in L]
    G = [p[::-1] for p in R]
    parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]
    d = [int(c) for c in digits]
    bits = "101" + "".join((L if p == "L" else G)[v] for p, v in zip(parity[d[0]], d[1:7])) + "01010" \
        + "".join(R[v] for v in d[7:13]) + "101"
    draw = ImageDraw.Draw(picture)
    for i, b in enumerate(bits):
        if b == "1":
            draw.rectangle([x + i * module, y, x + (i + 1) * module - 1, y + height - 1], fill=0)
    codes.append({"type": "ean13", "text": digits, "x": x, "y": y, "width": len(bits) * module, "height": height})

qr("Splice QR one", 60, 40, 6)
qr("second: ünïcode ✓ 2026", 400, 250, 5)
ean13("4006381333931", 40, 330, 3, 100)
picture.save(sys.argv[1])
print(json.dumps(codes))
"""#
}
