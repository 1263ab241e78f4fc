import Foundation
import Splice
import SpliceTestSupport
import SpliceTesting
import Testing

/// A real player: a package served on 127.0.0.1 and played by headless Chromium (its built-in HLS player, as a web
/// page's `<video src="master.m3u8">` gets it; hls.js is not packaged by Debian), its screenshot read back with
/// `ffmpeg`.
@Suite struct BrowserPlaybackTests {
    /// The RGB of the pixel at (`x`, `y`) of a PNG, read by `ffmpeg`.
    static func pixel(_ png: URL, x: Int, y: Int) async throws -> [Int] {
        let scratch = try ScratchDirectory("pixel")
        defer { scratch.remove() }
        let raw = scratch.file("pixel.rgb")
        _ = try await SecondReaders.run("ffmpeg", ["-v", "error", "-i", png.path, "-vf", "crop=1:1:\(x):\(y)", "-f", "rawvideo",
                                                   "-pix_fmt", "rgb24", raw.path])
        return try BinaryFile.read(raw).map(Int.init)
    }

    /// Drives headless Chromium through the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands on
    /// its descriptor 3, replies on 4, NUL-terminated JSON): opens `argv[2]`, waits (60 s at most) until the page's
    /// `#s` element says the video paused or failed, screenshots the page as PNG into `argv[3]` and prints `#s`.
    /// A screenshot taken on the page's own signal, not after a guessed delay: `--screenshot` with a virtual-time
    /// budget catches a video before or after its pictures show, depending on the machine's load.
    static let browse = """
        import base64, json, os, subprocess, sys, time
        chromium, url, out = sys.argv[1:4]
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        def child():
            os.dup2(to_chrome_r, 100); os.dup2(from_chrome_w, 101)
            os.dup2(100, 3); os.dup2(101, 4)
            os.set_inheritable(3, True); os.set_inheritable(4, True)
        browser = subprocess.Popen([chromium, '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required',
                                    '--window-size=320,240', '--remote-debugging-pipe', 'about:blank'],
                                   preexec_fn=child, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r); os.close(from_chrome_w)
        buffer = b''
        ids = iter(range(1, 1 << 30))
        def call(method, params=None, session=None):
            global buffer
            ident = next(ids)
            message = {'id': ident, 'method': method, 'params': params or {}}
            if session: message['sessionId'] = session
            os.write(to_chrome_w, json.dumps(message).encode() + b'\\0')
            while True:
                while b'\\0' not in buffer:
                    chunk = os.read(from_chrome_r, 1 << 16)
                    if not chunk: raise SystemExit('the browser closed its pipe')
                    buffer += chunk
                raw, buffer = buffer.split(b'\\0', 1)
                reply = json.loads(raw)
                if reply.get('id') == ident:
                    if 'error' in reply: raise SystemExit('%s: %s' % (method, reply['error']))
                    return reply['result']
        try:
            page = next(t for t in call('Target.getTargets')['targetInfos'] if t['type'] == 'page')
            session = call('Target.attachToTarget', {'targetId': page['targetId'], 'flatten': True})['sessionId']
            call('Page.navigate', {'url': url}, session)
            deadline = time.time() + 60
            status = ''
            while time.time() < deadline:
                status = call('Runtime.evaluate', {'expression': "(document.getElementById('s') || {}).textContent || ''"},
                              session)['result'].get('value', '')
                if 'paused' in status or 'error' in status: break
                time.sleep(0.2)
            shot = call('Page.captureScreenshot', {'format': 'png'}, session)
            with open(out, 'wb') as f: f.write(base64.b64decode(shot['data']))
            print(status.strip())
        finally:
            try: call('Browser.close')
            except BaseException: pass
            try: browser.wait(10)
            except subprocess.TimeoutExpired: browser.kill()
        """

    @Test("headless Chromium plays the HLS package from 127.0.0.1: the screenshot shows the red left half and the blue right half where the video is",
          .enabled(if: PythonVerifier.isAvailable))
    func chromiumPlaysThePackage() async throws {
        guard let chromium = Executable.required("chromium-headless-shell") else { return }
        let scratch = try ScratchDirectory("abr-browser")
        defer { scratch.remove() }
        let source = scratch.file("halves.mkv")
        try SyntheticMedia.write(video: "color=c=red:s=320x180:r=30,drawbox=x=160:y=0:w=160:h=180:color=blue:t=fill",
                                 audio: "sine=frequency=440:sample_rate=48000", duration: MediaTime(seconds: 4), to: source)
        let asset = try await Asset.load(from: source)
        var composition = MutableComposition()
        try composition.insertTimeRange(TimeRange(start: .zero, duration: asset.duration), of: asset, at: .zero)
        let site = scratch.file("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: false)
        let packager = AdaptiveBitratePackager(asset: composition)
        packager.ladder = AdaptiveBitrateLadder(renditions: [.init(height: 180, bitRate: 400_000)])
        packager.segmentDuration = MediaTime(seconds: 1)
        packager.encoderPreset = "veryfast"
        packager.manifestFormats = [.hls]
        _ = try await packager.write(to: site.appendingPathComponent("show"))
        // The video at the page's top left, 320x180 on black, paused once past 1 s (the screenshot is taken then);
        // the events it saw written under it.
        try Data("""
            <html><body style="margin:0;background:#000">
            <video id="v" src="show/master.m3u8" autoplay muted width="320" height="180"></video><div id="s"></div>
            <script>
            const v = document.getElementById('v'), s = document.getElementById('s');
            v.addEventListener('playing', () => { s.textContent += ' playing'; });
            v.addEventListener('timeupdate', () => { if (v.currentTime > 1 && !v.paused) { v.pause(); s.textContent += ' paused'; } });
            v.addEventListener('error', () => { s.textContent += ' error ' + (v.error && v.error.code); });
            </script></body></html>
            """.utf8).write(to: site.appendingPathComponent("index.html"))
        let (server, base, log) = try await SecondReaders.serve(site, in: scratch)
        defer { server.stop() }

        let shot = scratch.file("shot.png")
        let status = try await PythonVerifier.run(Self.browse, [chromium, "\(base)/index.html", shot.path], timeout: 150)
        #expect(status == "playing paused\n", "the page's video events")
        let requests = TextFile.text(of: log)
        #expect(requests.contains("GET /show/master.m3u8"), "\(requests)")
        #expect(requests.contains("GET /show/180p-400k/segment1.m4s"), "\(requests)")
        #expect(requests.contains("GET /show/audio-128k/init.mp4"), "\(requests)")
        // Red (255, 0, 0) and blue (0, 0, 255) after H.264 4:2:0 and the browser's conversion: within 24 levels,
        // at the centres of the halves; black below the video.
        let left = try await Self.pixel(shot, x: 80, y: 90), right = try await Self.pixel(shot, x: 240, y: 90)
        let below = try await Self.pixel(shot, x: 160, y: 230)
        func near(_ pixel: [Int], _ expected: [Int]) -> Bool { pixel.count == 3 && zip(pixel, expected).allSatisfy { abs($0 - $1) <= 24 } }
        #expect(near(left, [255, 0, 0]), "left half: \(left)")
        #expect(near(right, [0, 0, 255]), "right half: \(right)")
        #expect(near(below, [0, 0, 0]), "below the video: \(below)")
    }
}
