import Testing

/// Every reliability suite, one test at a time (`.serialized` applies to the nested suites and their arguments).
/// Most of them export or fuzz at full speed; side by side on a two-core machine they would starve the
/// timing-sensitive tests of the other targets, which run in parallel with this one.
@Suite(.serialized)
struct Reliability {}
