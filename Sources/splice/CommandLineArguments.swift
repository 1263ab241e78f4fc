/// The `splice` command line, parsed by hand (no outside packages): a command, its options and its operands.
///
/// Syntax: `splice COMMAND [OPERAND…] [OPTION…]`. Options may come before, between or after operands; a value is
/// given as `--name value`, `--name=value` or `-o value`; `--` ends the options (every later word is an operand).
/// `--help` / `-h` anywhere asks for the command's help; `--version` alone prints the version.
struct CommandLineArguments: Equatable {
    /// The commands.
    enum Command: String, CaseIterable {
        case export, probe, frame, graph, validate, expand, devices, record, repair, help
        case plan, renderSegment = "render-segment", join, submit, convert, batch, storyboard, scan
    }

    /// What was asked for.
    enum Request: Equatable {
        /// Print the version and the linked FFmpeg.
        case version
        /// Print the help of a command, or the general help (nil).
        case help(Command?)
        /// Run a command.
        case run(Command)
    }

    /// One option a command accepts.
    struct Option: Equatable {
        /// The long name without dashes (`output`).
        var name: String
        /// A one-letter alias without the dash (`o`), if any.
        var short: Character?
        /// True when the option takes a value.
        var takesValue: Bool
        /// For options with a fixed set of values (`--progress bar|plain|json|none`).
        var allowedValues: [String]?
    }

    /// A command line that cannot be run: the message, and the command whose usage to point at (nil: general).
    struct UsageError: Error, Equatable {
        var message: String
        var command: Command?
    }

    /// The request.
    var request: Request
    /// Operands, in order (document and media paths).
    var operands: [String]
    /// Option values by long name; a flag has the value `""`.
    var options: [String: String]

    /// True when the flag or option `name` was given.
    func has(_ name: String) -> Bool { options[name] != nil }

    /// The value of option `name`, if given.
    func value(_ name: String) -> String? { options[name] }

    /// The options each command accepts.
    static func options(of command: Command) -> [Option] {
        let output = Option(name: "output", short: "o", takesValue: true)
        let overwrite = Option(name: "overwrite", short: nil, takesValue: false)
        // For an .otio timeline: leave out the effects Splice does not render (listed) instead of refusing it.
        let dropEffects = Option(name: "drop-unsupported-effects", short: nil, takesValue: false)
        switch command {
        case .export:
            return [output, overwrite, dropEffects, Option(name: "smart", short: nil, takesValue: false),
                    Option(name: "segments", short: nil, takesValue: true),
                    Option(name: "fragment-interval", short: nil, takesValue: true),
                    Option(name: "loudness", short: nil, takesValue: true), Option(name: "true-peak", short: nil, takesValue: true),
                    Option(name: "limit-true-peak", short: nil, takesValue: false),
                    Option(name: "progress", short: nil, takesValue: true, allowedValues: ["bar", "plain", "json", "none"]),
                    Option(name: "hls", short: nil, takesValue: true), Option(name: "dash", short: nil, takesValue: true),
                    Option(name: "ladder", short: nil, takesValue: true), Option(name: "segment-duration", short: nil, takesValue: true),
                    Option(name: "track", short: nil, takesValue: true)]
        case .probe:
            return [Option(name: "json", short: nil, takesValue: false), Option(name: "loudness", short: nil, takesValue: false)]
        case .frame:
            return [output, overwrite, dropEffects, Option(name: "at", short: nil, takesValue: true),
                    Option(name: "dynamic-range", short: nil, takesValue: true, allowedValues: ["force-sdr", "match-source"])]
        case .validate:
            return [output, dropEffects, Option(name: "json", short: nil, takesValue: false)]
        case .convert:
            return [output, overwrite, dropEffects]
        case .devices:
            return [Option(name: "json", short: nil, takesValue: false), Option(name: "watch", short: nil, takesValue: false)]
        case .record:
            return [output] + ["video", "audio", "max-duration", "max-size", "fragment-interval", "min-free-space", "still-every", "volume",
                          "stream"]
                .map { Option(name: $0, short: nil, takesValue: true) }
                + [Option(name: "preset", short: nil, takesValue: true,
                          allowedValues: ["high", "medium", "low", "photo", "1920x1080", "1280x720", "640x480"]),
                   Option(name: "still-format", short: nil, takesValue: true, allowedValues: ["jpeg", "png"]),
                   Option(name: "orientation", short: nil, takesValue: true,
                          allowedValues: ["portrait", "portraitUpsideDown", "landscapeRight", "landscapeLeft"]),
                   Option(name: "mirrored", short: nil, takesValue: false)]
        case .graph, .expand:
            return [dropEffects]
        case .scan:
            return [dropEffects] + ["types", "rect", "every"].map { Option(name: $0, short: nil, takesValue: true) }
        case .repair, .help:
            return []
        case .plan:
            return [output, Option(name: "segments", short: nil, takesValue: true), Option(name: "parts", short: nil, takesValue: true)]
        case .renderSegment:
            return [Option(name: "index", short: nil, takesValue: true)]
        case .batch:
            return [Option(name: "jobs", short: "j", takesValue: true)]
        case .storyboard:
            return [output, overwrite] + ["every", "grid", "width", "name"].map { Option(name: $0, short: nil, takesValue: true) }
        case .join:
            return [output, overwrite, Option(name: "fragment-interval", short: nil, takesValue: true)]
        case .submit:
            return [output, overwrite, Option(name: "slurm", short: nil, takesValue: false),
                    Option(name: "kubernetes", short: nil, takesValue: false),
                    Option(name: "image", short: nil, takesValue: true)]
        }
    }

    /// How many operands each command takes: (minimum, maximum; nil for any number).
    static func operandCount(of command: Command) -> (Int, Int?) {
        switch command {
        case .export, .frame, .graph, .validate, .expand, .repair, .convert, .storyboard, .scan: return (1, 1)
        case .devices, .record: return (0, 0)
        case .plan, .renderSegment, .join, .submit, .batch: return (1, 1)
        case .probe: return (1, nil)
        case .help: return (0, 1)
        }
    }

    /// What a command's operands are, for the message when they are missing: `a document (DOC.json)`.
    static func operandName(of command: Command) -> String {
        switch command {
        case .export, .frame, .graph, .validate, .expand, .plan, .storyboard: return "a document (DOC.json)"
        case .convert: return "a document or timeline to convert (DOC.json or EDIT.otio)"
        case .renderSegment, .join, .submit: return "a plan (PLAN.json)"
        case .repair: return "a movie (MOVIE)"
        case .scan: return "a movie or a document (MOVIE or DOC.json)"
        case .batch: return "a batch file (JOBS.jsonl)"
        case .probe: return "at least one file"
        case .devices, .record, .help: return "no operand"
        }
    }

    /// Parses the words after the program name.
    ///
    /// - Throws: ``UsageError`` for a missing or unknown command, an unknown option, a missing option value, a value
    ///   outside an option's choices, or a wrong number of operands.
    static func parse(_ words: [String]) throws(UsageError) -> CommandLineArguments {
        guard let first = words.first else {
            throw UsageError(message: "no command given", command: nil)
        }
        if first == "--version" || first == "-V" {
            guard words.count == 1 else { throw UsageError(message: "--version takes no other arguments", command: nil) }
            return CommandLineArguments(request: .version, operands: [], options: [:])
        }
        if first == "--help" || first == "-h" {
            return CommandLineArguments(request: .help(nil), operands: [], options: [:])
        }
        if first.hasPrefix("-") {
            throw UsageError(message: "expected a command before '\(first)'", command: nil)
        }
        guard let command = Command(rawValue: first) else {
            let names = Command.allCases.map(\.rawValue)
            let hint = closest(first, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw UsageError(message: "unknown command '\(first)'\(hint)", command: nil)
        }

        let accepted = options(of: command)
        var operands: [String] = []
        var values: [String: String] = [:]
        var index = 1
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                operands.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "--help" || word == "-h" {
                return CommandLineArguments(request: .help(command == .help ? nil : command), operands: [], options: [:])
            }
            var name: String
            var inlineValue: String?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                let letters = word.dropFirst()
                guard letters.count == 1, let letter = letters.first,
                      let option = accepted.first(where: { $0.short == letter })
                else {
                    throw UsageError(message: "unknown option '\(word)'", command: command)
                }
                name = option.name
            }
            guard let option = accepted.first(where: { $0.name == name }) else {
                let hint = closest(name, in: accepted.map(\.name)).map { " (did you mean '--\($0)'?)" } ?? ""
                throw UsageError(message: "unknown option '--\(name)'\(hint)", command: command)
            }
            guard values[option.name] == nil else {
                throw UsageError(message: "--\(option.name) is given twice", command: command)
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < words.count else {
                        throw UsageError(message: "--\(option.name) needs a value", command: command)
                    }
                    value = words[index]
                    index += 1
                }
                if let allowed = option.allowedValues, !allowed.contains(value) {
                    throw UsageError(
                        message: "--\(option.name) is one of \(allowed.joined(separator: ", ")), not '\(value)'", command: command)
                }
                guard !value.isEmpty else { throw UsageError(message: "--\(option.name) needs a value", command: command) }
                values[option.name] = value
            } else {
                guard inlineValue == nil else {
                    throw UsageError(message: "--\(option.name) takes no value", command: command)
                }
                values[option.name] = ""
            }
        }

        if command == .help {
            guard let topic = operands.first else { return CommandLineArguments(request: .help(nil), operands: [], options: [:]) }
            guard operands.count == 1, let topicCommand = Command(rawValue: topic) else {
                throw UsageError(message: "no help on '\(operands.joined(separator: " "))'", command: nil)
            }
            return CommandLineArguments(request: .help(topicCommand), operands: [], options: [:])
        }
        let (minimum, maximum) = operandCount(of: command)
        if operands.count < minimum {
            throw UsageError(message: "expected \(operandName(of: command))", command: command)
        }
        if let maximum, operands.count > maximum {
            throw UsageError(
                message: "expected \(maximum) operand\(maximum == 1 ? "" : "s"), got \(operands.count): \(operands.joined(separator: " "))",
                command: command)
        }
        return CommandLineArguments(request: .run(command), operands: operands, options: values)
    }

    /// The candidate nearest to `word` when it is a likely typo (edit distance ≤ 2).
    private static func closest(_ word: String, in candidates: [String]) -> String? {
        func distance(_ a: String, _ b: String) -> Int {
            let a = Array(a), b = Array(b)
            var previous = Array(0...b.count)
            for i in a.indices {
                var row = [i + 1] + Array(repeating: 0, count: b.count)
                for j in b.indices {
                    row[j + 1] = min(previous[j + 1] + 1, row[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                }
                previous = row
            }
            return previous[b.count]
        }
        return candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
