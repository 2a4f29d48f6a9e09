// What --verify-diagnostics reports, in MLIR 19's words, at the expected-*
// line (a caret, and '~' under the length of the text): a diagnostic no
// comment expects, a comment no diagnostic met, one of another kind on
// its line; and what MLIR 19 passes over silently: a comment that does
// not parse (a bad @ offset, a count, no closing braces) and an @+N that
// points outside its chunk. Exit status 1; every chunk is checked.
// RUN: not opt --split-input-file --verify-diagnostics %s 2> %t.err
// RUN: FileCheck %s --input-file=%t.err --strict-whitespace

// An unexpected error, and its note.
"x.y"() : () -> ()
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:6: error: unexpected error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// CHECK-NEXT: "x.y"() : () -> ()
// CHECK-NEXT:      ^

// -----
// A missing one.
module {}
// expected-error@-1 {{never produced}}
// CHECK-NEXT: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: expected error "never produced" was not produced
// CHECK-NEXT: // expected{{[-]}}error@-1 {{[{][{]never produced[}][}]}}
// CHECK-NEXT:    ^~~~~~~~~~~~~~

// -----
// A warning expected where an error comes.
// expected-warning@+1 {{unregistered dialect}}
"x.y"() : () -> ()
// CHECK-NEXT: {{.*}}verify-failures.mlir:[[@LINE-2]]:4: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK-NEXT: // expected{{[-]}}warning@+1 {{[{][{]unregistered dialect[}][}]}}
// CHECK-NEXT:    ^
// CHECK-NEXT: {{.*}}verify-failures.mlir:[[@LINE-5]]:4: error: expected warning "unregistered dialect" was not produced

// -----
// Comments that meant to be expectations but do not parse.
module {}
// expected-error@+x {{bad offset}}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: cannot read this expectation; its form is 'expected{{[-]}}(error|warning|remark|note)[-re][@+N|@-N|@above|@below|@unknown] {{[{][{]TEXT[}][}]}}'
// expected-error 2 {{a count}}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: cannot read this expectation
// expected-error {{not closed}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: cannot read this expectation
// Words about an expected-error comment are no expectation.

// -----
// Offsets past the chunk, either way (the chunk is lines 45 to 51; its end, where the next chunk's marker is, counts too).
module {}
// expected-error@+40 {{far below}}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: '@+40' points at line 87, outside lines 45 to 52 that it can apply to
// expected-error@-9 {{far above}}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: '@-9' points at line 40, outside lines 45 to 52 that it can apply to

// -----
// A regex that does not compile, and one not closed.
module {}
// expected-error-re {{a{{[}}}}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: invalid regex: {{.*}}
// expected-error-re {{a{{b}}
// CHECK: {{.*}}verify-failures.mlir:[[@LINE-1]]:4: error: found start of regex with no end '}}'
// CHECK-NOT: error:
