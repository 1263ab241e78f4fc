import Foundation

/// Writes a photo's metadata into its file, as a camera does: an EXIF block (`APP1`) in a JPEG — ImageDescription,
/// Orientation 1 (the pixels are already turned), DateTimeOriginal, PixelXDimension, PixelYDimension — and `tEXt`
/// chunks in a PNG (`Description`, `Creation Time`). FFmpeg's decoders read both back into a frame's metadata.
enum PhotoMetadataWriter {
    /// `file` (a JPEG or PNG as libavcodec wrote it) with the metadata added; unchanged when its structure is not
    /// the expected one.
    static func embed(into file: Data, codec: CapturePhotoSettings.Codec, width: Int, height: Int, description: String,
                      date: Date) -> Data {
        let stamp = dateFormatter.string(from: date)
        switch codec {
        case .jpeg: return jpeg(file, width: width, height: height, description: description, date: stamp)
        case .png: return png(file, description: description, date: stamp)
        }
    }

    /// EXIF's date form, `YYYY:MM:DD HH:MM:SS`, in UTC.
    private static var dateFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter
    }

    /// The JPEG with an `APP1` EXIF block after `SOI` and the JFIF `APP0` (JFIF wants `APP0` first).
    private static func jpeg(_ file: Data, width: Int, height: Int, description: String, date: String) -> Data {
        let bytes = [UInt8](file)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return file }
        var insertAt = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count > 6 { insertAt = 4 + (Int(bytes[4]) << 8 | Int(bytes[5])) }
        // TIFF, big-endian: header, IFD0 (ImageDescription, Orientation, Exif pointer), its string, the Exif IFD
        // (DateTimeOriginal, PixelXDimension, PixelYDimension), its string. Offsets count from the TIFF header.
        let text = Array(description.utf8.prefix(200)) + [0]
        let ifd0 = 8, ifd0Size = 2 + 3 * 12 + 4
        let textOffset = ifd0 + ifd0Size
        let exifIFD = (textOffset + text.count + 1) & ~1, exifSize = 2 + 3 * 12 + 4
        let dateBytes = Array(date.utf8) + [0]
        let dateOffset = exifIFD + exifSize
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + be32(ifd0)
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            be16(tag) + be16(type) + be32(count) + value
        }
        tiff += be16(3)
        tiff += entry(0x010E, 2, text.count, be32(textOffset))
        tiff += entry(0x0112, 3, 1, be16(1) + [0, 0])
        tiff += entry(0x8769, 4, 1, be32(exifIFD))
        tiff += be32(0) + text
        if tiff.count < exifIFD { tiff.append(0) }
        tiff += be16(3)
        tiff += entry(0x9003, 2, dateBytes.count, be32(dateOffset))
        tiff += entry(0xA002, 4, 1, be32(width))
        tiff += entry(0xA003, 4, 1, be32(height))
        tiff += be32(0) + dateBytes
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + be16(payload.count + 2) + payload
        guard insertAt <= bytes.count, payload.count + 2 <= 0xFFFF else { return file }
        return spliced(bytes, inserting: segment, at: insertAt)
    }

    /// The PNG with `tEXt` chunks after `IHDR`.
    private static func png(_ file: Data, description: String, date: String) -> Data {
        let bytes = [UInt8](file)
        // Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC).
        let afterHeader = 8 + 25
        guard bytes.count > afterHeader, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return file }
        func chunk(_ keyword: String, _ text: String) -> [UInt8] {
            let body = Array("tEXt".utf8) + Array(keyword.utf8) + [0] + Array(text.utf8.prefix(1000))
            return be32(body.count - 4) + body + be32(Int(crc32(body)))
        }
        let added = chunk("Description", description) + chunk("Creation Time", date)
        return spliced(bytes, inserting: added, at: afterHeader)
    }

    /// `bytes` with `inserted` placed before index `offset`.
    private static func spliced(_ bytes: [UInt8], inserting inserted: [UInt8], at offset: Int) -> Data {
        var result = Data(capacity: bytes.count + inserted.count)
        result.append(contentsOf: bytes[0..<offset])
        result.append(contentsOf: inserted)
        result.append(contentsOf: bytes[offset..<bytes.count])
        return result
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC-32 (ISO 3309, reflected polynomial 0xEDB88320) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
