import Composition
import Foundation
import SpliceDocument
import SpliceTestSupport
import Testing
import VideoComposition

/// Problems in documents are reported at their JSON path, with the line and column of the value, and every one of
/// them at once.
@Suite("Document errors")
struct DocumentErrorTests {
    static func expectSingle(_ problems: [DocumentProblem], path: String, line: Int?, column: Int?, message: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
        guard let problem = problems.first else { return }
        #expect(problem.path.description == path, sourceLocation: sourceLocation)
        #expect(problem.line == line && problem.column == column, "at \(String(describing: problem.line)):\(String(describing: problem.column))", sourceLocation: sourceLocation)
        #expect(problem.message == message, sourceLocation: sourceLocation)
    }

    @Test func jsonSyntaxErrorGivesLineAndColumn() async throws {
        let problems = try await TestDocument.problems("""
            {
              "version": 1,
              "clips": [ { "source": "clipA.mp4" } ]
              "music": { "source": "music.m4a" }
            }
            """)
        Self.expectSingle(problems, path: "(document)", line: 4, column: 3,
                          message: "JSON syntax error: unexpected '\"': expected ',' or '}' after the value of 'clips'")
    }

    /// The 1-based column of the first `marker` in `text` (one-line texts).
    static func column(of marker: String, in text: String) -> Int? {
        text.range(of: marker).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 }
    }

    @Test(arguments: [
        (#"{ "version": 1, "clips": [ { "source": "clipA.mp4" }, ] }"#, "]", "JSON syntax error: trailing comma before ']'"),
        (#"{ "version": 1, "version": 1 }"#, #""version": 1 }"#, "JSON syntax error: duplicate key 'version' (first given on line 1)"),
        (#"{ "version": 1, // a comment }"#, "//", "JSON syntax error: comments are not allowed in JSON"),
        (#"{ "version": 1, "clips": [ { "source": 'clipA.mp4' } ] }"#, "'", "JSON syntax error: strings must be in double quotes (\"…\"), not single quotes"),
        (#"{ "version": 1, "clips": [ { "duration": 3s } ] }"#, "s }", "JSON syntax error: unexpected 's' after a number (a time with a unit, like 3.5s, must be a string: \"3.5s\")"),
        (#"{ "version": 1, "clips": [ { "source": "a\qb" } ] }"#, #"\q"#, "JSON syntax error: invalid escape '\\q' in a string"),
        (#"{ "version": 1, "clips": [ { "source": tru } ] }"#, "tru", "JSON syntax error: unexpected word 'tru': expected a value (strings need double quotes)"),
        ("", "", "JSON syntax error: the document is empty: expected a JSON object"),
        ("[1, 2]", "[", "a document is a JSON object ({ \"version\": 1, … }), not an array"),
    ])
    func syntaxSlipsAreNamed(text: String, marker: String, message: String) async throws {
        let problems = try await TestDocument.problems(text)
        Self.expectSingle(problems, path: "(document)", line: 1, column: Self.column(of: marker, in: text) ?? 1, message: message)
    }

    @Test func versionIsRequiredAndChecked() async throws {
        Self.expectSingle(try await TestDocument.problems(#"{ "clips": [] }"#), path: "(document)", line: 1, column: 1,
                          message: "the document has no \"version\": add \"version\": 1 at the top")
        Self.expectSingle(try await TestDocument.problems(#"{ "version": 2, "clips": [] }"#), path: "version", line: 1, column: 14,
                          message: "this splice reads version 1 documents, not version 2")
    }

    @Test func missingSourceFilesAreEachNamedWhereTheyAreWritten() async throws {
        let problems = try await TestDocument.problems("""
            {
              "version": 1,
              "clips": [
                { "source": "clipA.mp4" },
                { "source": "b.mov" },
                { "source": "c.mov" }
              ]
            }
            """)
        #expect(problems.count == 2)
        #expect(problems.map(\.path.description) == ["clips[1].source", "clips[2].source"])
        #expect(problems.map(\.line) == [5, 6])
        #expect(problems.map(\.column) == [17, 17])
        #expect(problems[0].message.hasPrefix("no such file 'b.mov' ("))
        #expect(problems[0].message.hasSuffix("/b.mov)"))
    }

    @Test func aMisspeltClipsKeyIsNamedWithASuggestion() async throws {
        let problems = try await TestDocument.problems("""
            {
              "version": 1,
              "clipz": [ { "source": "clipA.mp4" } ]
            }
            """)
        Self.expectSingle(problems, path: "clipz", line: 3, column: 12,
                          message: "unknown field 'clipz' (did you mean 'clips'?): the document needs \"clips\" (the short form) or \"composition\" (the full form)")
    }

    @Test func unknownFieldsAreErrorsWithASuggestion() async throws {
        let problems = try await TestDocument.problems("""
            {
              "version": 1,
              "_note": "comments start with an underscore",
              "clips": [ { "source": "clipA.mp4", "fadeout": "1s" } ],
              "musik": { "source": "music.m4a" }
            }
            """)
        #expect(problems.count == 2)
        #expect(problems.map(\.path.description) == ["clips[0].fadeout", "musik"])
        #expect(problems.map(\.message) == ["unknown field 'fadeout' (did you mean 'fadeOut'?)", "unknown field 'musik' (did you mean 'music'?)"])
        #expect(problems.map(\.line) == [4, 5])
    }

    @Test(arguments: [
        (#""volume": "loud""#, "clips[0].volume", #""loud""#, "expected a number, found a string"),
        (#""fit": "fil""#, "clips[0].fit", #""fil""#, "'fil' is not one of: fit, fill, stretch (did you mean 'fill'?)"),
        (#""duration": "3x""#, "clips[0].duration", #""3x""#, "'3x' is not a time: unknown unit 'x' (use s, ms or f)"),
        (#""speed": [2]"#, "clips[0].speed", "[2]", "expected a number, found an array"),
        (#""transition": { "duration": "1s" }"#, "clips[0].transition.type", #"{ "duration""#, "missing required field 'type'"),
    ])
    func badValuesArePointedAt(field: String, path: String, marker: String, message: String) async throws {
        let text = #"{ "version": 1, "clips": [ { "source": "clipA.mp4", "# + field + " } ] }"
        Self.expectSingle(try await TestDocument.problems(text), path: path, line: 1, column: Self.column(of: marker, in: text), message: message)
    }

    @Test func nullIsNotAValue() async throws {
        let text = #"{ "version": 1, "clips": [ { "source": null } ] }"#
        Self.expectSingle(try await TestDocument.problems(text), path: "clips[0].source", line: 1, column: Self.column(of: "null", in: text),
                          message: "is null; a value is required")
    }

    @Test func expansionProblemsPointAtTheClip() async throws {
        let problems = try await TestDocument.problems("""
            {
              "version": 1,
              "clips": [
                { "source": "clipA.mp4", "transition": { "type": "crossDissolve", "duration": "5s" } },
                { "source": "clipB.mp4", "speed": 64, "start": "3s", "duration": "2s" },
                { "source": "watermark.png", "start": "1s" }
              ],
              "overlays": [ { "image": "watermark.png", "text": "Hello" } ]
            }
            """)
        let described = problems.map { "\($0.path): \($0.message)" }
        #expect(described == [
            "clips[1].duration: 3.000 s + 2.000 s ends at 5.000 s, after the end of 'clipB.mp4' (its video lasts 4.000 s)",
            "clips[1].speed: 64.0 is outside the supported 1/32 … 32",
            "clips[2].start: 'watermark.png' is a still image: it has no start time (give only a duration)",
        ], "\(described)")
        #expect(problems.map(\.line) == [5, 5, 6])
    }
}
