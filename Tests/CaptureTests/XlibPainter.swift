import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal X client, loaded at run time from libX11.so.6 (no X development headers needed): opens a display and
/// maps plain windows of given colours at given places, which stay until ``close()``.
final class XlibPainter {
    private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias RootWindow = @convention(c) (OpaquePointer?) -> UInt
    private typealias CreateSimpleWindow = @convention(c) (OpaquePointer?, UInt, Int32, Int32, UInt32, UInt32, UInt32, UInt, UInt) -> UInt
    private typealias MapWindow = @convention(c) (OpaquePointer?, UInt) -> Int32
    private typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32
    private typealias CloseDisplay = @convention(c) (OpaquePointer?) -> Int32

    private let library: UnsafeMutableRawPointer
    private let display: OpaquePointer

    struct Unavailable: Error, CustomStringConvertible { var description: String }

    /// Connects to `displayName` (`:99`).
    init(displayName: String) throws {
        guard let library = dlopen("libX11.so.6", RTLD_NOW) else { throw Unavailable(description: "libX11.so.6 cannot be loaded") }
        self.library = library
        guard let open = dlsym(library, "XOpenDisplay").map({ unsafeBitCast($0, to: OpenDisplay.self) }),
              let display = open(displayName) else {
            throw Unavailable(description: "XOpenDisplay(\(displayName)) failed")
        }
        self.display = display
    }

    private func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }

    /// Maps a borderless window at (`x`, `y`), `width` × `height` pixels, filled with `rgb` (0xRRGGBB on a 24-bit
    /// TrueColor screen), and waits until the server has done it.
    func fill(x: Int, y: Int, width: Int, height: Int, rgb: UInt) {
        guard let root = symbol("XDefaultRootWindow", as: RootWindow.self)?(display),
              let window = symbol("XCreateSimpleWindow", as: CreateSimpleWindow.self)?(
                display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, rgb) else { return }
        _ = symbol("XMapWindow", as: MapWindow.self)?(display, window)
        _ = symbol("XSync", as: Sync.self)?(display, 0)
    }

    /// Closes the connection (the windows go with it).
    func close() {
        _ = symbol("XCloseDisplay", as: CloseDisplay.self)?(display)
    }
}
