import Composition

/// A file cut short: its container's index lists samples of a stream whose bytes lie beyond the file's end, so the
/// stream's data ends before the time the index promises.
///
/// Thrown by ``InputFile/readPacket(into:)`` when a read reaches the end of the file (or a sample the file ends
/// inside) while the index of a stream being read still lists samples past it: libavformat itself reports such a
/// file as a plain end of file, a "partial file" or a corrupt packet, and a reader would take the stream for shorter
/// than it is. Facts, no URL: each engine turns it into its public error naming the file.
package struct SourceTruncation: Error, Hashable, CustomStringConvertible {
    /// The stream's index in the file (`AVStream.index`).
    package let streamIndex: Int
    /// The file time (the stream's timestamps as libavformat gives them, as ffprobe shows them) of the first sample
    /// the file does not hold whole, as its index entry states it (in MP4/MOV its decode time, which is its
    /// presentation time in a stream without B-frames): where the stream's data ends.
    package let dataEnd: MediaTime
    /// The file time of the last sample the index lists, stated the same way.
    package let indexedEnd: MediaTime
    /// The file's size now, in bytes.
    package let fileSize: Int64
    /// The size, in bytes, the index needs for the stream's samples (the end of its farthest sample).
    package let indexedSize: Int64

    package init(streamIndex: Int, dataEnd: MediaTime, indexedEnd: MediaTime, fileSize: Int64, indexedSize: Int64) {
        self.streamIndex = streamIndex
        self.dataEnd = dataEnd
        self.indexedEnd = indexedEnd
        self.fileSize = fileSize
        self.indexedSize = indexedSize
    }

    /// "stream 0's data ends at 0.770 s, though the file's index lists samples up to 2.290 s (the file has 1000000
    /// bytes, the index needs 1783875): the file is cut short" — times with three decimals, as every message gives
    /// them (``Composition/MediaTime/secondsText``).
    package var description: String {
        "stream \(streamIndex)'s data ends at \(dataEnd.secondsText), though the file's index lists samples up to "
            + "\(indexedEnd.secondsText) (the file has \(fileSize) bytes, the index needs \(indexedSize)): the file is cut short"
    }
}
