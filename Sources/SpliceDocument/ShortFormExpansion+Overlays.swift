import AudioMix
import Composition
import Foundation
import VideoComposition

extension ShortFormExpansion {
    mutating func overlayLayer(
        _ overlay: ShortFormDocument.Overlay, index: Int, renderSize: Size, total: MediaTime
    ) -> OverlayLayer? {
        let path = DocumentPath("overlays").appending(index)
        let content: OverlayLayer.Content
        var naturalSize: (width: Double, height: Double)?
        switch (overlay.image, overlay.text) {
        case (let image?, nil):
            guard let asset = assets[image] else {
                problems.add(path.appending("image"), "'\(image)' was not loaded")
                return nil
            }
            guard let picture = asset.tracks(withMediaType: .video).first?.video else {
                problems.add(path.appending("image"), "'\(image)' has no picture")
                return nil
            }
            let display = picture.displaySize
            naturalSize = (Double(display.width), Double(display.height))
            content = .image(resolve(image))
            for (name, present) in [("fontSize", overlay.fontSize != nil), ("fontFamily", overlay.fontFamily != nil),
                                    ("fontFile", overlay.fontFile != nil), ("color", overlay.color != nil),
                                    ("backgroundColor", overlay.backgroundColor != nil), ("padding", overlay.padding != nil),
                                    ("alignment", overlay.alignment != nil)] where present {
                problems.add(path.appending(name), "applies to text overlays only; this overlay shows an image")
            }
        case (nil, let text?):
            content = .text(TextLayerContent(
                string: text, fontFile: overlay.fontFile.map(resolve), fontFamily: overlay.fontFamily ?? "sans-serif",
                fontSize: overlay.fontSize ?? ShortFormDocument.defaultFontSize, color: overlay.color ?? .white,
                alignment: overlay.alignment ?? .center, backgroundColor: overlay.backgroundColor,
                padding: overlay.padding ?? 0))
        case (nil, nil):
            problems.add(path, "an overlay needs \"image\" (a file) or \"text\"")
            return nil
        case (_?, _?):
            problems.add(path, "an overlay shows an \"image\" or a \"text\", not both")
            return nil
        }

        var usable = true
        if let fontSize = overlay.fontSize, !(fontSize.isFinite && fontSize > 0) {
            problems.add(path.appending("fontSize"), "\(fontSize) is not a text size > 0 (pixels)")
            usable = false
        }
        if let padding = overlay.padding, !(padding.isFinite && padding >= 0) {
            problems.add(path.appending("padding"), "\(padding) is not a number of pixels ≥ 0")
            usable = false
        }
        if let opacity = overlay.opacity, !(0...1).contains(opacity) {
            problems.add(path.appending("opacity"), "\(opacity) is outside 0…1")
            usable = false
        }
        if let margin = overlay.margin, !margin.isFinite {
            problems.add(path.appending("margin"), "\(margin) is not a number of pixels")
            usable = false
        }
        if let fontFile = overlay.fontFile, case let url = resolve(fontFile), !FileManager.default.fileExists(atPath: url.path) {
            problems.add(path.appending("fontFile"), "no such file '\(fontFile)' (\(url.path))")
            usable = false
        }
        for (name, value) in [("width", overlay.width), ("height", overlay.height)] {
            if let value, !(value.isFinite && value > 0) {
                problems.add(path.appending(name), "\(value) is not a number of pixels > 0")
                usable = false
            }
        }
        guard usable else { return nil }

        let frame: Rect
        if let layer = overlay.layer {
            for (name, present) in [("position", overlay.position != nil), ("margin", overlay.margin != nil),
                                    ("width", overlay.width != nil), ("height", overlay.height != nil)] where present {
                problems.add(path.appending(name), "an overlay placed by \"layer\" (Core Animation geometry) takes no \"\(name)\"")
                usable = false
            }
            let placed = layer.frame(inCanvasOf: renderSize)
            guard usable, [placed.x, placed.y, placed.width, placed.height].allSatisfy(\.isFinite), placed.width > 0, placed.height > 0 else {
                if usable { problems.add(path.appending("layer"), "the layer's bounds (\(placed.width) × \(placed.height) pixels) must be > 0 and its position finite") }
                return nil
            }
            frame = placed
        } else {
            guard let placed = frameFromPosition(overlay, path: path, naturalSize: naturalSize, renderSize: renderSize) else { return nil }
            frame = placed
        }

        let start = overlay.start ?? .zero
        guard start.isNumeric, start >= .zero, start < total else {
            problems.add(path.appending("start"), "\(start.secondsText) is not a time from 0 to the end of the edit (\(total.secondsText))")
            return nil
        }
        let duration = overlay.duration ?? (total - start)
        guard duration.isNumeric, duration > .zero else {
            problems.add(path.appending("duration"), "\(duration) is not a duration > 0")
            return nil
        }
        if start + duration > total {
            problems.add(path.appending("duration"), "the overlay ends at \((start + duration).secondsText), after the end of the edit (\(total.secondsText))")
            return nil
        }
        let opacity = overlay.opacity ?? 1
        let range = TimeRange(start: start, duration: duration)
        var layer = OverlayLayer(content: content, frame: frame, timeRange: range, opacity: opacity)
        for (name, fade) in [("fadeIn", overlay.fadeIn), ("fadeOut", overlay.fadeOut)] {
            guard let fade else { continue }
            if !fade.isNumeric || fade <= .zero || fade > duration {
                problems.add(path.appending(name), "\(fade.secondsText) is not a duration from 0 to the overlay's (\(duration.secondsText))")
                return nil
            }
        }
        if let fadeIn = overlay.fadeIn, let fadeOut = overlay.fadeOut, fadeIn + fadeOut > duration {
            problems.add(path.appending("fadeOut"), "the fade-in and fade-out overlap: the overlay shows for \(duration.secondsText)")
            return nil
        }
        if let fadeIn = overlay.fadeIn {
            layer.opacities.setRamp(from: 0, to: opacity, timeRange: TimeRange(start: start, duration: fadeIn))
        }
        if let fadeOut = overlay.fadeOut {
            layer.opacities.setRamp(from: opacity, to: 0, timeRange: TimeRange(start: range.end - fadeOut, end: range.end))
        }
        return layer
    }

    /// The overlay's frame from its named or pixel ``ShortFormDocument/Overlay/position``, margin and size, or nil
    /// (with the problem recorded) when the size is not usable.
    mutating func frameFromPosition(
        _ overlay: ShortFormDocument.Overlay, path: DocumentPath, naturalSize: (width: Double, height: Double)?, renderSize: Size
    ) -> Rect? {
        let margin = overlay.margin ?? 0
        var width: Double, height: Double
        if let natural = naturalSize {
            switch (overlay.width, overlay.height) {
            case let (w?, h?): (width, height) = (w, h)
            case let (w?, nil): (width, height) = (w, natural.width > 0 ? w * natural.height / natural.width : 0)
            case let (nil, h?): (width, height) = (natural.height > 0 ? h * natural.width / natural.height : 0, h)
            case (nil, nil): (width, height) = natural
            }
        } else {
            let fontSize = overlay.fontSize ?? ShortFormDocument.defaultFontSize
            let lines = Double((overlay.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).count)
            width = overlay.width ?? (Double(renderSize.width) - 2 * margin)
            height = overlay.height ?? (lines * fontSize * 1.25 + 2 * (overlay.padding ?? 0)).rounded(.up)
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0, margin.isFinite else {
            problems.add(path, "the overlay's size (\(width) × \(height) pixels) or margin (\(margin)) is not usable: width and height must be > 0")
            return nil
        }
        let canvasWidth = Double(renderSize.width), canvasHeight = Double(renderSize.height)
        let origin: Point
        switch overlay.position ?? .named(.center) {
        case .point(let point): origin = point
        case .named(let anchor):
            let left = margin, centerX = (canvasWidth - width) / 2, right = canvasWidth - width - margin
            let top = margin, centerY = (canvasHeight - height) / 2, bottom = canvasHeight - height - margin
            switch anchor {
            case .topLeft: origin = Point(x: left, y: top)
            case .top: origin = Point(x: centerX, y: top)
            case .topRight: origin = Point(x: right, y: top)
            case .left: origin = Point(x: left, y: centerY)
            case .center: origin = Point(x: centerX, y: centerY)
            case .right: origin = Point(x: right, y: centerY)
            case .bottomLeft: origin = Point(x: left, y: bottom)
            case .bottom: origin = Point(x: centerX, y: bottom)
            case .bottomRight: origin = Point(x: right, y: bottom)
            }
        }

        return Rect(x: origin.x, y: origin.y, width: width, height: height)
    }

    func resolve(_ path: String) -> URL {
        DocumentSources.url(for: path, folder: folder)
    }
}
