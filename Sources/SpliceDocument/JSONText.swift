/// JSON text of `Encodable` values as Splice's tools print it: object members in the order the types encode them
/// (Foundation's `JSONEncoder` on Linux orders them by hash), numbers in their shortest exact form.
public enum JSONText {
    /// Indented JSON for people (two spaces; short arrays and objects on one line), ending without a newline.
    ///
    /// - Throws: `EncodingError` for a non-finite number.
    public static func pretty(_ value: some Encodable) throws -> String {
        try JSONNodeEncoder.encode(value).prettyPrinted()
    }

    /// JSON on one line without spaces, for JSON-lines output.
    ///
    /// - Throws: `EncodingError` for a non-finite number.
    public static func compact(_ value: some Encodable) throws -> String {
        try JSONNodeEncoder.encode(value).compactText
    }
}
