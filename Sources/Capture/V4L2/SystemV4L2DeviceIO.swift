import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// ``V4L2DeviceIO`` over the real ioctls of a `/dev/videoN` node, with the structures of linux/videodev2.h laid out
/// byte by byte (their sizes are fixed by the kernel ABI: `v4l2_capability` 104 bytes, `v4l2_fmtdesc` 64,
/// `v4l2_frmsizeenum` 44, `v4l2_frmivalenum` 52, `v4l2_queryctrl` 68, `v4l2_querymenu` 44, `v4l2_control` 8).
///
/// Never run against hardware by this project (no camera on its machines): see docs/capture.md. The node is opened
/// per call (`O_RDWR | O_NONBLOCK`) and closed again, so the value holds no descriptor.
struct SystemV4L2DeviceIO: V4L2DeviceIO {
    let path: String

    /// `_IOC(dir, 'V', nr, size)` from asm-generic/ioctl.h: dir 2 = read, 3 = read/write.
    private static func request(_ direction: UInt, _ number: UInt, _ size: UInt) -> UInt {
        (direction << 30) | (size << 16) | (0x56 << 8) | number
    }

    private func call(_ name: String, _ number: UInt, _ buffer: inout [UInt8], direction: UInt = 3) throws(V4L2IOError) {
        let fd = open(path, O_RDWR | O_NONBLOCK)
        guard fd >= 0 else { throw V4L2IOError(ioctl: name, errno: errno) }
        defer { close(fd) }
        let request = Self.request(direction, number, UInt(buffer.count))
        let result = buffer.withUnsafeMutableBytes { ioctl(fd, request, $0.baseAddress!) }
        if result < 0 { throw V4L2IOError(ioctl: name, errno: errno) }
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }
    private static func put(_ value: UInt32, _ bytes: inout [UInt8], _ offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }
    private static func text(_ bytes: [UInt8], _ offset: Int, _ length: Int) -> String {
        let slice = bytes[offset..<(offset + length)].prefix { $0 != 0 }
        return String(decoding: slice, as: UTF8.self)
    }
    private static func fourCC(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * UInt32($0))) }, as: UTF8.self)
    }
    private static func code(_ fourCC: String) -> UInt32 {
        fourCC.utf8.prefix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    func capability() throws(V4L2IOError) -> V4L2Capability {
        var buffer = [UInt8](repeating: 0, count: 104)
        try call("VIDIOC_QUERYCAP", 0, &buffer, direction: 2)
        return V4L2Capability(driver: Self.text(buffer, 0, 16), card: Self.text(buffer, 16, 32),
                              busInfo: Self.text(buffer, 48, 32), deviceCapabilities: Self.u32(buffer, 88))
    }

    func pixelFormats() throws(V4L2IOError) -> [V4L2PixelFormat] {
        var formats: [V4L2PixelFormat] = []
        for index in 0..<64 {
            var buffer = [UInt8](repeating: 0, count: 64)
            Self.put(UInt32(index), &buffer, 0)
            Self.put(1, &buffer, 4)  // V4L2_BUF_TYPE_VIDEO_CAPTURE
            do { try call("VIDIOC_ENUM_FMT", 2, &buffer) } catch where error.errno == EINVAL { break }
            formats.append(V4L2PixelFormat(fourCC: Self.fourCC(Self.u32(buffer, 44)), description: Self.text(buffer, 12, 32)))
        }
        return formats
    }

    func frameSizes(pixelFormat: String) throws(V4L2IOError) -> [V4L2FrameSize] {
        var sizes: [V4L2FrameSize] = []
        for index in 0..<256 {
            var buffer = [UInt8](repeating: 0, count: 44)
            Self.put(UInt32(index), &buffer, 0)
            Self.put(Self.code(pixelFormat), &buffer, 4)
            do { try call("VIDIOC_ENUM_FRAMESIZES", 74, &buffer) } catch where error.errno == EINVAL { break }
            // type 1 = discrete (width, height); 2/3 = continuous/stepwise (min w, max w, step, min h, max h, step).
            if Self.u32(buffer, 8) == 1 {
                sizes.append(V4L2FrameSize(width: Int(Self.u32(buffer, 12)), height: Int(Self.u32(buffer, 16))))
            } else {
                sizes.append(V4L2FrameSize(width: Int(Self.u32(buffer, 16)), height: Int(Self.u32(buffer, 28))))
                break
            }
        }
        return sizes
    }

    func frameIntervals(pixelFormat: String, width: Int, height: Int) throws(V4L2IOError) -> [V4L2FrameInterval] {
        var intervals: [V4L2FrameInterval] = []
        for index in 0..<64 {
            var buffer = [UInt8](repeating: 0, count: 52)
            Self.put(UInt32(index), &buffer, 0)
            Self.put(Self.code(pixelFormat), &buffer, 4)
            Self.put(UInt32(width), &buffer, 8)
            Self.put(UInt32(height), &buffer, 12)
            do { try call("VIDIOC_ENUM_FRAMEINTERVALS", 75, &buffer) } catch where error.errno == EINVAL { break }
            intervals.append(V4L2FrameInterval(Int32(bitPattern: Self.u32(buffer, 20)), Int32(bitPattern: Self.u32(buffer, 24))))
            if Self.u32(buffer, 16) != 1 { break }  // stepwise: its minimum interval only
        }
        return intervals
    }

    func controls() throws(V4L2IOError) -> [V4L2ControlInfo] {
        var infos: [V4L2ControlInfo] = []
        var id: UInt32 = 0x8000_0000  // V4L2_CTRL_FLAG_NEXT_CTRL
        while infos.count < 512 {
            var buffer = [UInt8](repeating: 0, count: 68)
            Self.put(id, &buffer, 0)
            do { try call("VIDIOC_QUERYCTRL", 36, &buffer) } catch where error.errno == EINVAL { break }
            let found = Self.u32(buffer, 0)
            id = found | 0x8000_0000
            let kind: V4L2ControlInfo.Kind
            switch Self.u32(buffer, 4) {
            case 1: kind = .integer
            case 2: kind = .boolean
            case 3, 9: kind = .menu
            case 4: kind = .button
            default: continue
            }
            let minimum = Int32(bitPattern: Self.u32(buffer, 40)), maximum = Int32(bitPattern: Self.u32(buffer, 44))
            var items: [Int32] = []
            if kind == .menu, minimum <= maximum {
                for item in minimum...maximum {
                    var menu = [UInt8](repeating: 0, count: 44)
                    Self.put(found, &menu, 0)
                    Self.put(UInt32(bitPattern: item), &menu, 4)
                    if (try? call("VIDIOC_QUERYMENU", 37, &menu)) != nil { items.append(item) }
                }
            }
            infos.append(V4L2ControlInfo(
                id: found, name: Self.text(buffer, 8, 32), kind: kind, minimum: minimum, maximum: maximum,
                step: Int32(bitPattern: Self.u32(buffer, 48)), defaultValue: Int32(bitPattern: Self.u32(buffer, 52)),
                menuItems: items))
        }
        return infos
    }

    func value(ofControl id: UInt32) throws(V4L2IOError) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 8)
        Self.put(id, &buffer, 0)
        try call("VIDIOC_G_CTRL", 27, &buffer)
        return Int32(bitPattern: Self.u32(buffer, 4))
    }

    func setValue(_ value: Int32, ofControl id: UInt32) throws(V4L2IOError) {
        var buffer = [UInt8](repeating: 0, count: 8)
        Self.put(id, &buffer, 0)
        Self.put(UInt32(bitPattern: value), &buffer, 4)
        try call("VIDIOC_S_CTRL", 28, &buffer)
    }
}
