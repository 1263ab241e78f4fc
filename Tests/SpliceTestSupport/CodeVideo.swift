import Foundation

/// A 4 s movie (640 × 480, 30 fps, H.264) showing machine-readable codes that appear at known frames, places, sizes
/// and rotations on a white picture, drawn by the pinned Python packages `qrcode` and `python-barcode` (the bar
/// patterns; every bar drawn here as a rectangle of whole pixels) and encoded by the `ffmpeg` CLI.
package enum CodeVideo {
    /// The frame size, rate and length of the movie.
    package static let (width, height, frameRate, frameCount) = (640, 480, 30, 120)

    /// One code in the movie: its type (the metadata object type's raw value), text, first frame (it stays to the
    /// end), and its corners in pixels — a QR code's symbol corners (top left, bottom left, bottom right, top right
    /// as printed, turned with it), a bar code's bars as an upright rectangle clockwise from the top left.
    package struct DrawnCode: Decodable, Sendable {
        package var type: String
        package var text: String
        package var firstFrame: Int
        package var angle: Double
        package var corners: [[Double]]

        /// The time of the first frame showing the code, seconds.
        package var firstTime: Double { Double(firstFrame) / Double(CodeVideo.frameRate) }
    }

    /// Writes the movie to `url` and returns its codes: QR "Splice QR upright" from frame 15 (upright, 5 px
    /// modules), QR "rotated 30°: ✓ ünïcode" from frame 31 (turned 30° counter-clockwise, 4 px modules), EAN-13
    /// 4006381333931 from frame 47 (2 px modules, upright), Code 128 "SPL-128" from frame 62 (turned a quarter, bars
    /// horizontal, 2 px modules).
    /// - Throws: what the Python script or `ffmpeg` reports.
    package static func make(at url: URL) async throws -> [DrawnCode] {
        guard let ffmpeg = Executable.find("ffmpeg") else { throw MissingTool(name: "ffmpeg") }
        let printed = try await PythonVerifier.run(script, [url.path, ffmpeg])
        return try JSONDecoder().decode([DrawnCode].self, from: Data(printed.utf8))
    }

    /// A tool the movie needs is not on PATH.
    package struct MissingTool: Error, CustomStringConvertible {
        package var name: String
        package var description: String { "\(name) is not on PATH" }
    }

    /// Draws the frames and pipes them, gray, into `ffmpeg` (x264, CRF 12); prints the codes as JSON.
    static let script = #"""
import json, math, subprocess, sys
import barcode, qrcode
from PIL import Image, ImageDraw

W, H, FPS, FRAMES = 640, 480, 30, 120
out, ffmpeg = sys.argv[1], sys.argv[2]
placed = []  # (first frame, image, paste position)
codes = []

def place(kind, text, image, symbol, centre, angle, first):
    # Turns `image` (white around the symbol) by `angle` degrees counter-clockwise about its centre, as PIL does,
    # pastes it centred near `centre`, and records where the symbol's corners land.
    w, h = image.size
    turned = image.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
    tw, th = turned.size
    left, top = int(round(centre[0] - tw / 2)), int(round(centre[1] - th / 2))
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    def moved(point):
        dx, dy = point[0] - w / 2, point[1] - h / 2
        return [left + tw / 2 + dx * cos + dy * sin, top + th / 2 - dx * sin + dy * cos]
    corners = [moved(p) for p in symbol]
    if kind != "qr":
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        corners = [[min(xs), min(ys)], [max(xs), min(ys)], [max(xs), max(ys)], [min(xs), max(ys)]]
    placed.append((first, turned, (left, top)))
    codes.append({"type": kind, "text": text, "firstFrame": first, "angle": angle, "corners": corners})

def qr(text, box, centre, angle, first):
    code = qrcode.QRCode(border=4, box_size=box, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    image = code.make_image().convert("L")
    q, (w, h) = 4 * box, image.size
    place("qr", text, image, [(q, q), (q, h - q), (w - q, h - q), (w - q, q)], centre, angle, first)

def bars(kind, text, module, height, centre, angle, first):
    symbol = barcode.get({"ean13": "ean13", "code128": "code128"}[kind], text)
    pattern = symbol.build()[0]
    quiet = 12 * module
    image = Image.new("L", (len(pattern) * module + 2 * quiet, height + 2 * quiet), 255)
    draw = ImageDraw.Draw(image)
    for i, bit in enumerate(pattern):
        if bit == "1":
            draw.rectangle([quiet + i * module, quiet, quiet + (i + 1) * module - 1, quiet + height - 1], fill=0)
    right, bottom = quiet + len(pattern) * module, quiet + height
    place(kind, symbol.get_fullcode() if kind == "ean13" else text, image,
          [(quiet, quiet), (quiet, bottom), (right, bottom), (right, quiet)], centre, angle, first)

qr("Splice QR upright", 5, (110, 110), 0, 15)
qr("rotated 30°: ✓ ünïcode", 4, (330, 130), 30, 31)
bars("ean13", "400638133393", 2, 70, (170, 390), 0, 47)
bars("code128", "SPL-128", 2, 60, (560, 250), 90, 62)

encoder = subprocess.Popen([ffmpeg, "-nostdin", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "gray",
                            "-s", f"{W}x{H}", "-r", str(FPS), "-i", "-", "-c:v", "libx264", "-preset", "veryfast",
                            "-crf", "12", "-pix_fmt", "yuv420p", out], stdin=subprocess.PIPE)
picture = None
for n in range(FRAMES):
    if picture is None or any(first == n for first, _, _ in placed):
        picture = Image.new("L", (W, H), 255)
        for first, image, position in placed:
            if first <= n:
                picture.paste(image, position)
    encoder.stdin.write(picture.tobytes())
encoder.stdin.close()
if encoder.wait() != 0:
    sys.exit("ffmpeg failed")
print(json.dumps(codes))
"""#
}
