/// A `lut` filter that applies a layer's opacity, and the options that set it for one frame (the graph is built
/// with the first frame's opacity; later frames send these options as commands, so a ramp keeps one graph).
///
/// Two forms, the same pixels:
/// - ``alphaScale``: the layer's alpha plane scaled (`a=val*opacity`); `overlay` then blends the layer over what
///   is below it.
/// - ``overBlack``: a layer covering an 8-bit black canvas blended with black in the `lut` itself, by the arithmetic
///   `overlay` uses (straight alpha, `(below·(255 − α) + layer·α + 128)·257 >> 16` per component, α the alpha the
///   alpha-scale form gives: `255·opacity` truncated). The layer needs no alpha plane, the graph no background
///   picture and no `overlay` copy of it: at 1080p about 10 MB less per frame in flight through a fade to black.
struct OpacityTarget: Hashable {
    enum Form: Hashable {
        case alphaScale
        case overBlack
    }

    /// The filter instance (`lut@l0`).
    var filter: String
    var form: Form

    /// The `lut` options (name, expression) for `opacity` (0…1), each a value as the graph's text writes it.
    func options(opacity: Double) -> [(name: String, expression: String)] {
        let written = FilterGraphCompiler.format(opacity)
        switch form {
        case .alphaScale:
            return [("a", "val*\(written)")]
        case .overBlack:
            // `lut` evaluates `val*opacity` at val = 255 as a double and keeps the integer part, clipped to 0…255.
            let alpha = min(255, max(0, Int((255 * (Double(written) ?? opacity)).rounded(.towardZero))))
            // Black in 8-bit limited-range Y'CbCr: Y' 16, Cb and Cr 128 (``SolidFrame``).
            return [("y", 16), ("u", 128), ("v", 128)].map { name, below in
                (name, "(\(below * (255 - alpha))+val*\(alpha)+128)*257/65536")
            }
        }
    }

    /// The filter as the graph's text declares it: `lut@l0=y=val:u=val:v=val:a=val*0.500000`.
    func declaration(opacity: Double) -> String {
        let given = options(opacity: opacity)
        let all = ["y", "u", "v", "a"].compactMap { name -> String? in
            if let option = given.first(where: { $0.name == name }) { return "\(name)=\(option.expression)" }
            return form == .alphaScale ? "\(name)=val" : nil
        }
        return "\(filter)=" + all.joined(separator: ":")
    }
}
