internal import CZBar

/// libzbar's image scanner, owned: made for a set of code types, freed in deinit. Scans 8-bit gray pictures and
/// returns what it found in pixel coordinates. Used on one thread at a time (the metadata output's scanning thread,
/// or the task scanning a file).
package final class CodeScanner {
    /// One code as libzbar reports it: its type, its bytes as text, and its location polygon in pixels of the whole
    /// picture (for a QR code its four corners; for a bar code the ends of the scan lines that crossed it).
    struct Symbol {
        var type: MetadataObjectType
        var text: String?
        var points: [(x: Int, y: Int)]
    }

    package let types: Set<MetadataObjectType>
    private let scanner: OpaquePointer

    /// A scanner reading only `types` (every other symbology disabled).
    /// - Throws: ``ScannerUnavailable`` when libzbar cannot allocate its scanner.
    package init(types: Set<MetadataObjectType>) throws(ScannerUnavailable) {
        guard let scanner = zbar_image_scanner_create() else { throw ScannerUnavailable() }
        self.scanner = scanner
        self.types = types
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for type in types { zbar_image_scanner_set_config(scanner, type.zbarSymbol, ZBAR_CFG_ENABLE, 1) }
    }

    /// libzbar could not allocate its scanner or image.
    package struct ScannerUnavailable: Error {}

    deinit { zbar_image_scanner_destroy(scanner) }

    /// The codes in the `width` × `height` gray picture `pixels` (rows packed, top first), looking only inside
    /// `crop` (pixels; the whole picture when nil). Returns [] when libzbar cannot make its image.
    func scan(_ pixels: [UInt8], width: Int, height: Int,
              crop: (x: Int, y: Int, width: Int, height: Int)? = nil) -> [Symbol] {
        pixels.withUnsafeBytes { scan($0, width: width, height: height, bytesPerRow: width, crop: crop) }
    }

    /// The codes in the `width` × `height` gray picture `pixels` (one byte per pixel, row `y` starting at byte
    /// `y × bytesPerRow`), looking only inside `crop` (pixels; the whole picture when nil). Returns [] when libzbar
    /// cannot make its image or the buffer is shorter than the picture.
    ///
    /// libzbar reads the rows in place: a stride wider than the picture is given to it as a wider image cropped to
    /// the picture, so no row is copied.
    func scan(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
              crop: (x: Int, y: Int, width: Int, height: Int)? = nil) -> [Symbol] {
        guard !types.isEmpty, width > 0, height > 0, bytesPerRow >= width, pixels.count >= bytesPerRow * height,
              let base = pixels.baseAddress, let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, czbar_gray8_fourcc())
        zbar_image_set_size(image, UInt32(bytesPerRow), UInt32(height))
        let crop = crop ?? (0, 0, width, height)
        let right = min(crop.x + crop.width, width)
        zbar_image_set_crop(image, UInt32(crop.x), UInt32(crop.y), UInt32(max(1, right - crop.x)), UInt32(crop.height))
        // No cleanup handler: libzbar only reads the buffer, which outlives the image (destroyed on return).
        zbar_image_set_data(image, base, UInt(bytesPerRow * height), nil)
        guard zbar_scan_image(scanner, image) > 0 else { return [] }
        var found: [Symbol] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            defer { symbol = zbar_symbol_next(current) }
            guard let type = MetadataObjectType(zbarSymbol: zbar_symbol_get_type(current)) else { continue }
            let length = Int(zbar_symbol_get_data_length(current))
            let text = zbar_symbol_get_data(current).map { data in
                data.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
            }
            let count = zbar_symbol_get_loc_size(current)
            let points = (0..<count).map {
                (x: Int(zbar_symbol_get_loc_x(current, $0)), y: Int(zbar_symbol_get_loc_y(current, $0)))
            }
            found.append(Symbol(type: type, text: length > 0 ? text : nil, points: points))
        }
        return found
    }
}
