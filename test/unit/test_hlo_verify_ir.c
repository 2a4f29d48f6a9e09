/* The after-pass shape check (wp_hlo_verify_ir), which exports the IR one
 * instruction at a time, against the whole module's export verified as a
 * whole (the reference: the same message at the same place, and nothing
 * where export refuses the module). Over every HLO text module of the lit
 * tests that imports, each also broken in small ways: an op's result
 * type changed, ids and names taken away (export makes fresh ones), an
 * id used twice (export refuses), the stored instruction order reversed. */
#include "weightpack/weightpack.h"
#include "wp_diag.h"
#include "wp_file.h"
#include "wp_hlo.h"
#include "wp_hlo_verify.h"
#include "wp_mlir_util.h"
#include "wp_test.h"

#include <dirent.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference: the module exported whole, then verified ---- */

/* 0, or -1 with the message and its place. */
static int reference(MlirModule m, char *msg, size_t cap, MlirLocation *loc) {
  wp_arena *arena = wp_arena_create();
  Xla__HloModuleProto *mod;
  wp_error err;
  wp_hlo_verify_error e;
  int rc = 0;
  if (wp_hlo_export_proto(m, arena, false, &mod, NULL, &err) == 0 &&
      wp_hlo_verify_module(mod, &e)) {
    snprintf(msg, cap, "after: %s", e.msg);
    *loc = wp_hlo_verify_error_loc(m, mod, &e);
    rc = -1;
  }
  wp_arena_destroy(arena);
  return rc;
}

/* ---- the check under test, its diagnostics collected ---- */

typedef struct seen {
  int errors;
  char msg[2048];
  MlirLocation loc;
} seen;

static void put_str(MlirStringRef s, void *user) {
  seen *d = user;
  size_t n = strlen(d->msg);
  snprintf(d->msg + n, sizeof d->msg - n, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult collect(MlirDiagnostic diag, void *user) {
  seen *d = user;
  if (mlirDiagnosticGetSeverity(diag) == MlirDiagnosticError && d->errors++ == 0) {
    d->loc = mlirDiagnosticGetLocation(diag);
    mlirDiagnosticPrint(diag, put_str, d);
  }
  return mlirLogicalResultSuccess();
}

static int n_compared, n_errors;

static void compare(MlirContext ctx, MlirModule m, const char *what) {
  char want[2048];
  MlirLocation want_loc = {NULL};
  int want_rc = reference(m, want, sizeof want, &want_loc);
  seen got = {0};
  MlirDiagnosticHandlerID h = mlirContextAttachDiagnosticHandler(ctx, collect, &got, NULL);
  int rc = wp_hlo_verify_ir(m, "after");
  mlirContextDetachDiagnosticHandler(ctx, h);
  n_compared++;
  n_errors += want_rc != 0;
  if (rc != want_rc || got.errors != (want_rc ? 1 : 0) ||
      (want_rc && (strcmp(got.msg, want) || !mlirLocationEqual(got.loc, want_loc)))) {
    char a[256] = "", b[256] = "";
    if (want_rc)
      wp_loc_str(want_loc, a, sizeof a);
    if (got.errors)
      wp_loc_str(got.loc, b, sizeof b);
    fprintf(stderr, "%s: want %d \"%s\" at %s; got %d (%d errors) \"%s\" at %s\n", what, want_rc,
            want_rc ? want : "", a, rc, got.errors, got.msg, b);
    wp_test_failed++;
  }
}

/* ---- the modules and their breakages ---- */

typedef enum breakage {
  NONE,
  RESULT_DIM,  /* op K's result one longer */
  RESULT_TYPE, /* op K's result of another element type */
  NO_ID,       /* op K without its id (op K + 1 longer) */
  DUP_ID,      /* op K with the first op's id, and longer: export refuses it */
  NO_IDS,      /* no ids at all (op K longer) */
  NO_NAMES,    /* ops without ids and names (op K longer) */
  REVERSED,    /* the stored instruction orders reversed (ops 0 and K longer) */
} breakage;

static MlirOperation nth_op(MlirModule m, size_t k) {
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m)); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    for (MlirOperation op = mlirBlockGetFirstOperation(wp_func_body(f)); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      if (!wp_op_is(op, "func.return") && k-- == 0)
        return op;
  return (MlirOperation){NULL};
}

/* Its result's type changed: a dimension one longer, or another element
 * type. False where there is none to change. */
static bool retype(MlirOperation op, bool dim) {
  if (mlirOperationIsNull(op) || mlirOperationGetNumResults(op) != 1)
    return false;
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  if (!mlirTypeIsARankedTensor(t))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t dims[16];
  if (rank > 16)
    return false;
  for (intptr_t i = 0; i < rank; i++)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  MlirType elem = mlirShapedTypeGetElementType(t);
  MlirContext ctx = mlirTypeGetContext(t);
  if (dim && rank > 0 && dims[0] >= 0)
    dims[0]++;
  else if (dim)
    return false;
  else if (mlirTypeEqual(elem, mlirF32TypeGet(ctx)))
    elem = mlirIntegerTypeGet(ctx, 32);
  else
    elem = mlirF32TypeGet(ctx);
  mlirValueSetType(r, mlirRankedTensorTypeGet(rank, dims, elem, mlirAttributeGetNull()));
  return true;
}

/* Without ids, or (NAMES) without ops' ids and names: export makes names
 * of fresh ids. */
static void drop_all_ids(MlirModule m, bool names) {
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m)); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!names) /* calls name their callees by id */
      mlirOperationRemoveAttributeByName(f, wp_sref("hlo.id"));
    mlirOperationRemoveAttributeByName(f, wp_sref("hlo.order"));
    for (MlirOperation op = mlirBlockGetFirstOperation(wp_func_body(f)); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      mlirOperationRemoveAttributeByName(op, wp_sref("id"));
      if (names)
        mlirOperationRemoveAttributeByName(op, wp_sref("name"));
    }
  }
}

static void reverse_orders(MlirModule m) {
  for (MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m)); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirAttribute o = wp_attr(f, "hlo.order");
    if (mlirAttributeIsNull(o) || !mlirAttributeIsADenseI64Array(o))
      continue;
    intptr_t n = mlirDenseArrayGetNumElements(o);
    int64_t *v = malloc((size_t)(n + 1) * sizeof *v);
    for (intptr_t i = 0; i < n; i++)
      v[i] = mlirDenseI64ArrayGetElement(o, n - 1 - i);
    wp_set_attr(f, "hlo.order", mlirDenseI64ArrayGet(mlirOperationGetContext(f), n, v));
    free(v);
  }
}

/* Breaks M as B asks at op K (and, for ids, op K again with its type
 * changed, so that there is a shape error export may refuse to show).
 * False when it cannot. */
static bool breakit(MlirModule m, breakage b, size_t k) {
  MlirOperation op = nth_op(m, k), first = nth_op(m, 0);
  if (b == NONE)
    return true;
  if (mlirOperationIsNull(op))
    return false;
  switch (b) {
  case RESULT_DIM:
    return retype(op, true);
  case RESULT_TYPE:
    return retype(op, false);
  case NO_ID:
    mlirOperationRemoveAttributeByName(op, wp_sref("id"));
    retype(nth_op(m, k + 1), true);
    return true;
  case DUP_ID:
    if (k == 0)
      return false;
    wp_set_attr(op, "id", wp_attr(first, "id"));
    retype(op, true);
    return true;
  case NO_IDS:
  case NO_NAMES:
    drop_all_ids(m, b == NO_NAMES);
    return retype(op, true);
  case REVERSED: /* two errors: the order says which is found first */
    reverse_orders(m);
    return retype(op, true) && (k == 0 || retype(first, true));
  default:
    return false;
  }
}

static void check_chunk(MlirContext ctx, const char *text, size_t len, const char *name) {
  MlirModule m;
  wp_error err;
  if (wpImportHloText(ctx, text, len, name, &m, &err))
    return; /* a test of the reader's errors */
  size_t n_ops = 0;
  while (!mlirOperationIsNull(nth_op(m, n_ops)))
    n_ops++;
  mlirModuleDestroy(m);
  for (int b = NONE; b <= REVERSED; b++)
    for (size_t k = 0; k < (b == NONE ? 1 : n_ops) && k < 40; k++) {
      if (wpImportHloText(ctx, text, len, name, &m, &err))
        return;
      char what[600];
      snprintf(what, sizeof what, "%s, breakage %d at op %zu", name, b, k);
      if (breakit(m, (breakage)b, k))
        compare(ctx, m, what);
      mlirModuleDestroy(m);
    }
}

/* Each "// -----" piece of FILE. */
static void check_file(MlirContext ctx, const char *path, const char *name) {
  wp_mapped_file f;
  wp_error err;
  if (wp_file_map(path, &f, &err))
    return;
  const char *start = (const char *)f.data, *end = start + f.size;
  int piece = 0;
  for (const char *line = start; line <= end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    const char *next = nl ? nl + 1 : end + 1;
    if (line == end || (end - line >= 8 && !memcmp(line, "// -----", 8))) {
      char label[512];
      snprintf(label, sizeof label, "%s#%d", name, piece++);
      check_chunk(ctx, start, (size_t)(line - start), label);
      start = next < end ? next : end;
    }
    line = next;
  }
  wp_file_unmap(&f);
}

static void check_dir(MlirContext ctx, const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *ent;
  while ((ent = readdir(d))) {
    size_t n = strlen(ent->d_name);
    if (n < 4 || strcmp(ent->d_name + n - 4, ".hlo"))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    check_file(ctx, path, ent->d_name);
  }
  closedir(d);
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  wp_error err;
  CHECK(wpLoadDialects(ctx, &err) == 0);
  /* the importer's own warnings (elided constants) are not what is tested */
  seen quiet = {0};
  MlirDiagnosticHandlerID h = mlirContextAttachDiagnosticHandler(ctx, collect, &quiet, NULL);
  static const char *const dirs[] = {"hlo-text", "inline-weights", "outline-weights", "neff",
                                     "bir", "verify", "errors"};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/test/lit/%s", WP_SOURCE_DIR, dirs[i]);
    check_dir(ctx, dir);
  }
  /* a message that names an instruction: with the names taken away, the
   * one export makes of its fresh id */
  static const char call[] = "HloModule m\n"
                             "callee {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p)\n}\n"
                             "ENTRY main {\n  x = f32[2] parameter(0)\n  b = f32[2] bitcast(x)\n"
                             "  ROOT r = f32[2] call(b), to_apply=callee\n}\n";
  check_chunk(ctx, call, sizeof call - 1, "call");
  mlirContextDetachDiagnosticHandler(ctx, h);
  printf("compared %d modules, %d with a shape error\n", n_compared, n_errors);
  CHECK(n_compared > 1000 && n_errors > 300);
  mlirContextDestroy(ctx);
  return wp_test_result("test_hlo_verify_ir");
}
