extension CaptureDevice {
    /// A virtual camera (FFmpeg `lavfi`): `testsrc2` at `width` × `height` pixels and `frameRate` fps, paced to real
    /// time (`realtime`), with every frame whose number is a multiple of `markerInterval` × `frameRate` painted white
    /// (a "flash"; nil for no markers). Marked ``isVirtual``; for tests, demos and CI.
    ///
    /// The flash of second k is frame k·frameRate·markerInterval, exactly k·markerInterval seconds after the device
    /// starts; ``virtualMicrophone(sampleRate:markerInterval:)`` beeps at the same instants.
    public static func virtualCamera(width: Int = 640, height: Int = 480, frameRate: Int = 30,
                                     markerInterval: Int? = 1) -> CaptureDevice {
        var graph = "testsrc2=size=\(width)x\(height):rate=\(frameRate)"
        if let markerInterval {
            graph += ",drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='eq(mod(n\\,\(frameRate * markerInterval))\\,0)'"
        }
        graph += ",format=yuv420p,realtime"
        let format = Format(pixelFormat: "yuv420p", width: width, height: height,
                            frameRateRanges: [FrameRateRange(framesPerSecond: Int32(frameRate))])
        let id = markerInterval == nil ? "virtual:camera" : "virtual:camera-markers"
        return CaptureDevice(
            uniqueID: id, localizedName: markerInterval == nil ? "Virtual Camera" : "Virtual Camera (flash every \(markerInterval!) s)",
            modelID: "lavfi testsrc2", deviceType: .virtualCamera, isVirtual: true, formats: [format], mediaTypes: [.video],
            source: CaptureSource(formatName: "lavfi", device: graph, options: [:], clock: .zeroAtOpen))
    }

    /// A virtual microphone (FFmpeg `lavfi`): a stereo 440 Hz tone of peak amplitude `toneAmplitude` (linear, full
    /// scale 1.0; default 0.1, a −20 dBFS peak, −23.01 dBFS RMS; 0 for digital silence), paced to real time
    /// (`arealtime`), with a 1 kHz beep at amplitude 0.8 for the first 1/30 s of every `markerInterval` seconds
    /// (nil for no beeps). Marked ``isVirtual``; a non-default amplitude is part of its ``uniqueID``.
    public static func virtualMicrophone(sampleRate: Int = 48_000, toneAmplitude: Double = 0.1,
                                         markerInterval: Int? = 1) -> CaptureDevice {
        let tone = "\(toneAmplitude)*sin(2*PI*440*t)"
        let expression: String
        if let markerInterval {
            expression = "if(lt(mod(n\\,\(sampleRate * markerInterval))\\,\(sampleRate / 30))\\,0.8*sin(2*PI*1000*t)\\,\(tone))"
        } else {
            expression = tone
        }
        let graph = "aevalsrc=exprs='\(expression)':s=\(sampleRate):c=stereo:n=1024,arealtime"
        var id = markerInterval == nil ? "virtual:microphone" : "virtual:microphone-markers"
        if toneAmplitude != 0.1 { id += "-tone-\(toneAmplitude)" }
        return CaptureDevice(
            uniqueID: id, localizedName: markerInterval == nil ? "Virtual Microphone" : "Virtual Microphone (beep every \(markerInterval!) s)",
            modelID: "lavfi aevalsrc", deviceType: .virtualMicrophone, isVirtual: true,
            formats: [Format(sampleRate: sampleRate, channelCount: 2)], mediaTypes: [.audio],
            source: CaptureSource(formatName: "lavfi", device: graph, options: [:], clock: .zeroAtOpen))
    }

    /// A virtual camera showing a still colour chart (FFmpeg `lavfi`), for checking colours and orientation at known
    /// pixels: `width` × `height` pixels in four quadrants — top left red (255, 0, 0), top right green (0, 255, 0),
    /// bottom left blue (0, 0, 255), bottom right white — so every turn and mirror of it looks different. Delivered as
    /// BT.601 limited-range 4:2:0 at `frameRate` fps, paced to real time. Marked ``isVirtual``; its ``uniqueID`` is
    /// `virtual:color-chart`. Not listed by discovery (the test pattern is the demo camera).
    public static func virtualColorChart(width: Int = 640, height: Int = 480, frameRate: Int = 30) -> CaptureDevice {
        let half = "w=iw/2:h=ih/2:t=fill"
        let graph = "color=c=red:s=\(width)x\(height):r=\(frameRate),format=yuv420p"
            + ",drawbox=x=iw/2:y=0:\(half):color=lime,drawbox=x=0:y=ih/2:\(half):color=blue"
            + ",drawbox=x=iw/2:y=ih/2:\(half):color=white,realtime"
        let format = Format(pixelFormat: "yuv420p", width: width, height: height,
                            frameRateRanges: [FrameRateRange(framesPerSecond: Int32(frameRate))])
        return CaptureDevice(
            uniqueID: "virtual:color-chart", localizedName: "Virtual Colour Chart", modelID: "lavfi color+drawbox",
            deviceType: .virtualCamera, isVirtual: true, formats: [format], mediaTypes: [.video],
            source: CaptureSource(formatName: "lavfi", device: graph, options: [:], clock: .zeroAtOpen))
    }

    /// The virtual devices discovery lists: a camera and a microphone, each plain and with markers.
    static var virtualDevices: [CaptureDevice] {
        [virtualCamera(markerInterval: nil), virtualCamera(), virtualMicrophone(markerInterval: nil), virtualMicrophone()]
    }
}
