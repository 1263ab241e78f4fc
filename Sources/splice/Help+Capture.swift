/// The help texts of the capture commands.
extension Help {
    static let devices = """
        Usage: splice devices [--json] [--watch]

        Lists the capture devices this machine has now: V4L2 cameras (by their stable /dev/v4l/by-id or by-path
        name), PulseAudio sources and monitors, X11 screens, and Splice's virtual devices (marked [virtual]: a test
        pattern with a white flash every second, a 440 Hz tone with a 1 kHz beep every second). `record` takes the
        IDs or names printed here.

        Options:
          --json    one JSON object per device: uniqueID, name, type, mediaTypes, position, virtual, formats
          --watch   instead of listing, print a line per device connected or disconnected from now on
                    (`connected ID<TAB>name`; with --json {"event", "uniqueID", "name"}) until Ctrl-C or SIGTERM:
                    cameras at once (inotify on /dev), audio sources and X11 displays within a second (polled)

        \(exitCodes)
        """

    static let record = """
        Usage: splice record -o OUT.mp4 [--stream URL] [--video ID] [--audio ID] [--preset P] [--max-duration T]
                             [--max-size BYTES] [--fragment-interval T] [--min-free-space BYTES]
                             [--still-every T [--still-format F]] [--orientation O] [--mirrored] [--volume G]
               splice record --stream URL [--video ID] [--audio ID] [--max-duration T] …

        Records from capture devices into OUT (.mp4 or .mov; an existing file is never overwritten). While
        recording, the file is a fragmented movie flushed at every fragment (the first after 1 s, then every
        --fragment-interval, default 10 s): killed or crashed, it still plays up to its last complete fragment
        (`splice repair` cuts a torn one). A clean end — a limit, or Ctrl-C — finishes it as a regular movie.

        Options:
          -o, --output FILE         the movie to write (required unless --stream is given)
          --stream URL              also (or only) send the picture and sound live: rtmp://host/app/key (FLV),
                                    srt://host:port (MPEG-TS), or a live HLS playlist DIR/NAME.m3u8 (fMP4
                                    segments, the folder must exist); H.264 at 2.5 Mb/s constant bit rate, AAC
                                    128 kb/s, a key frame every 2 s. A dropped connection is retried with backoff
                                    (printed) without touching the movie; exit 3 when the stream failed
          --video ID                a video device's ID or name from `splice devices` (default: the first camera,
                                    else a screen, else the virtual camera)
          --audio ID                a sound device's ID or name (default: none unless --video is virtual, then
                                    the virtual microphone); `none` for no sound
          --preset P                high (default), medium, low, photo, 1920x1080, 1280x720, 640x480
          --max-duration T          stop after T (3s, 500ms, 00:01:00)
          --max-size BYTES          stop before the file would exceed BYTES
          --fragment-interval T     time between fragments after the first (default 10s)
          --min-free-space BYTES    stop when the disk has less free space
          --still-every T           also take a photo every T while recording, written beside OUT as
                                    OUT-still-0001.jpg, … (never over an existing file)
          --still-format F          jpeg (default) or png
          --orientation O           landscapeRight (default: the camera's own), portrait, portraitUpsideDown,
                                    landscapeLeft: a display matrix in the movie, turned pixels in the stills
          --mirrored                flip the picture left to right (after the turn), as a front camera's preview
          --volume G                linear gain 0…1 on every channel of the sound (0.5 is −6.02 dB), in the file
                                    and the level meter

        Progress (recorded time and size) is printed to stderr once a second. Ctrl-C (SIGINT) or SIGTERM stops the
        recording and finishes the file (exit 0).

        Examples:
          splice record --video virtual:camera-markers --audio virtual:microphone-markers --max-duration 5s -o t.mp4
          splice record --video x11:99.0 --audio pulse:vsink.monitor -o screen.mov
          splice record --video virtual:camera-markers -o take.mp4 --stream rtmp://127.0.0.1:1935/live/key

        \(exitCodes)
        """

    static let repair = """
        Usage: splice repair MOVIE

        Checks a fragmented recording (what `splice record` writes while recording) or a fragmented export
        (`splice export --fragment-interval`) and, when its last fragment is
        torn — the process was killed while writing it — cuts the file after its last complete fragment. Prints
        what was kept. A complete file is left untouched; an empty one (killed before its first fragment) has
        nothing to keep.

        \(exitCodes)
        """

    static let scan = """
        Usage: splice scan MOVIE [--types T,…] [--rect X,Y,W,H] [--every T]
               splice scan DOC.json …

        Finds machine-readable codes in the pictures of a movie (its first video track, as shown: a portrait
        phone clip upright) or of a document's rendered frames, with the detector of the capture metadata output
        (libzbar), and prints one JSON line per code found, in time order:
          {"time":1.5,"type":"qr","value":"text","corners":[[x,y],[x,y],[x,y],[x,y]]}
        time is the picture's presentation time in seconds; corners are normalised to the picture (0…1, origin
        top left, y down): a QR code's four corners in its own order (top left, bottom left, bottom right, top
        right as printed), a bar code's the rectangle its scan lines spanned, clockwise from the top left. A
        summary (codes found, pictures scanned) goes to stderr.

        Options:
          --types T,…       qr, ean13, ean8, upce, code39, code93, code128, interleaved2of5 (default: all of
                            them); pdf417 is refused: the linked libzbar does not decode it
          --rect X,Y,W,H    search only this part of each picture, normalised (default 0,0,1,1)
          --every T         scan at most one picture per T (500ms, 1s); default every picture

        Examples:
          splice scan shelf.mp4 --types ean13,code128
          splice scan clip.mov --rect 0.25,0.25,0.5,0.5 --every 200ms

        \(exitCodes)
        """
}
