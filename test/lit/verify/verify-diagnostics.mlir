// --verify-diagnostics: each diagnostic must be met by an expected-*
// comment on its line, and each comment by a diagnostic; then the exit
// status is 0. The forms MLIR 19 reads: @+N, @-N, @above, @below, {{...}}
// as a substring, -re with {{regex}} parts; a note is checked on its own.
// Chunks that fail write nothing; the others do.
// RUN: opt --split-input-file --verify-diagnostics %s | FileCheck %s
// Without it, the same input fails with the parser's errors, at the
// lines of the whole file.
// RUN: not opt --split-input-file %s 2>&1 | FileCheck %s --check-prefix=PLAIN

// CHECK: module {
// CHECK-NEXT: }
module {}

// -----
module {
  // expected-error@+2 {{Dialect `foo' not found for custom op 'foo.bar'}}
  // expected-note@+1 {{Registered dialects: builtin}}
  foo.bar
}
// PLAIN: verify-diagnostics.mlir:[[@LINE-2]]:3: error: Dialect `foo' not found
// PLAIN-NEXT: {{^  foo.bar$}}
// PLAIN-NEXT: {{^  \^$}}

// -----
// @-N, and a regex.
"x.y"() : () -> ()
// expected-error-re@-1 {{operation being parsed with an {{un[a-z]+}} dialect}}
// PLAIN: verify-diagnostics.mlir:[[@LINE-2]]:6: error: operation being parsed

// -----
// @above: the last line that is no expectation.
"x.y"() : () -> ()
// expected-error@above {{unregistered dialect}}

// -----
// @below: the next line that is no expectation.
// expected-error@below {{If this is intended, please use -allow-unregistered-dialect}}
"x.z"() : () -> ()

// -----
// One expectation meets every diagnostic of its kind on its line.
// expected-error@+1 {{unregistered}}
"x.y"() : () -> ()

// -----
// CHECK-COUNT-6: // -----
// CHECK-NEXT: module attributes {a.b = 1 : i64} {
module attributes {a.b = 1 : i64} {
}
