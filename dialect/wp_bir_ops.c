#include "wp_bir_ops.h"

#include "wp_bir.h"
#include "wp_bir_table.h"
#include "wp_hlo_literal.h"
#include "wp_hlo_resource.h"
#include "wp_hlo_weight.h"
#include "wp_mlir_util.h"
#include "wp_npy.h"
#include "wp_strmap.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef sym_name(MlirOperation op) {
  MlirStringRef s = {"", 0};
  wp_attr_str(op, "sym_name", &s);
  return s;
}

int wp_bir_names_init(wp_bir_names *names, MlirOperation func, const char *op_name) {
  wp_i64map_init(&names->by_hash);
  names->n = 0;
  size_t cap = 0;
  names->ops = NULL;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!wp_op_is(op, op_name))
      continue;
    if (names->n == cap) {
      cap = cap ? 2 * cap : 64;
      names->ops = wp_xrealloc(names->ops, cap * sizeof *names->ops);
    }
    MlirStringRef s = sym_name(op);
    int64_t h = wp_hash_bytes(s.data, s.length), v;
    wp_i64map_put(&names->by_hash, h,
                  wp_i64map_get(&names->by_hash, h, &v) ? 0 : (int64_t)names->n + 1);
    names->ops[names->n++] = op;
  }
  return 0;
}

void wp_bir_names_free(wp_bir_names *names) {
  wp_i64map_free(&names->by_hash);
  free(names->ops);
  names->ops = NULL;
  names->n = 0;
}

int64_t wp_bir_names_index(const wp_bir_names *names, MlirStringRef name) {
  int64_t v;
  if (wp_i64map_get(&names->by_hash, wp_hash_bytes(name.data, name.length), &v)) {
    if (v > 0 && mlirStringRefEqual(sym_name(names->ops[v - 1]), name))
      return v - 1;
    for (size_t i = 0; v == 0 && i < names->n; i++)
      if (mlirStringRefEqual(sym_name(names->ops[i]), name))
        return (int64_t)i;
  }
  return -1;
}

MlirOperation wp_bir_names_find(const wp_bir_names *names, MlirStringRef name) {
  int64_t i = wp_bir_names_index(names, name);
  return i < 0 ? (MlirOperation){NULL} : names->ops[i];
}

MlirOperation wp_bir_next_function(MlirOperation module, MlirOperation prev) {
  MlirOperation op = mlirOperationIsNull(prev) ? wp_first_op_in(module)
                                              : mlirOperationGetNextInBlock(prev);
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (wp_op_is(op, "func.func") && !mlirAttributeIsNull(wp_attr(op, "bir.function")))
      return op;
  return (MlirOperation){NULL};
}

char *wp_bir_str(wp_arena *arena, MlirOperation op, const char *name) {
  MlirStringRef s;
  if (!wp_attr_str(op, name, &s))
    return "";
  return wp_arena_strndup(arena, s.data, s.length);
}

/* The hlo.constant named NAME in the HLO program's entry computation. */
static MlirOperation hlo_constant(MlirOperation module, MlirStringRef name) {
  MlirOperation prog = wp_bir_hlo_program(mlirModuleFromOperation(module));
  if (mlirOperationIsNull(prog))
    return (MlirOperation){NULL};
  for (MlirOperation f = wp_first_op_in(prog); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!wp_op_is(f, "func.func"))
      continue;
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
      MlirStringRef n;
      if (wp_op_is(op, "hlo.constant") && wp_attr_str(op, "name", &n) &&
          mlirStringRefEqual(n, name))
        return op;
    }
  }
  return (MlirOperation){NULL};
}

/* The HLO program's constants by name, for assembling a file of many. */
typedef struct constant_index {
  wp_i64map by_hash; /* hash(name) -> index + 1 of the first constant with that hash */
  MlirOperation *ops;
  size_t n;
} constant_index;

static MlirStringRef constant_name(MlirOperation op) {
  MlirStringRef s = {"", 0};
  wp_attr_str(op, "name", &s);
  return s;
}

static int64_t name_hash(MlirStringRef s) { return wp_hash_bytes(s.data, s.length); }

static int constant_index_init(constant_index *ci, MlirOperation module, wp_arena *arena) {
  wp_i64map_init(&ci->by_hash);
  ci->n = 0;
  ci->ops = NULL;
  MlirOperation prog = wp_bir_hlo_program(mlirModuleFromOperation(module));
  if (mlirOperationIsNull(prog))
    return 0;
  for (int pass = 0; pass < 2; pass++) { /* count, then fill */
    size_t n = 0;
    for (MlirOperation f = wp_first_op_in(prog); !mlirOperationIsNull(f);
         f = mlirOperationGetNextInBlock(f)) {
      if (!wp_op_is(f, "func.func"))
        continue;
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
      for (MlirOperation op = mlirBlockIsNull(b) ? (MlirOperation){NULL}
                                                 : mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
        if (!wp_op_is(op, "hlo.constant"))
          continue;
        if (pass == 1) {
          int64_t h = name_hash(constant_name(op)), v;
          if (!wp_i64map_get(&ci->by_hash, h, &v))
            wp_i64map_put(&ci->by_hash, h, (int64_t)n + 1);
          ci->ops[n] = op;
        }
        n++;
      }
    }
    if (pass == 0)
      ci->ops = wp_arena_alloc(arena, (n + 1) * sizeof *ci->ops);
    ci->n = n;
  }
  return 0;
}

/* The first constant of that name, as hlo_constant finds it. */
static MlirOperation constant_index_find(const constant_index *ci, MlirStringRef name) {
  int64_t v;
  if (!wp_i64map_get(&ci->by_hash, name_hash(name), &v))
    return (MlirOperation){NULL};
  /* the first with that hash; a later one only when two names share it */
  for (size_t i = (size_t)v - 1; i < ci->n; i++)
    if (mlirStringRefEqual(constant_name(ci->ops[i]), name))
      return ci->ops[i];
  return (MlirOperation){NULL};
}

/* Finds constants in the order bir-lower placed them, which is their
 * order in the program: the constant after the last one found is tried
 * first, and the index of all of them is built only when that guess
 * fails, then used for every later name. The first constant of a name
 * wins, whichever way it is found: a guess whose name was found before
 * (a second constant of that name) goes to the index too. */
typedef struct constant_finder {
  MlirOperation module, next;
  constant_index ci;
  bool indexed;
  wp_i64map guessed; /* name hashes of the constants found by guessing */
} constant_finder;

static MlirOperation first_program_op(MlirOperation module) {
  MlirOperation prog = wp_bir_hlo_program(mlirModuleFromOperation(module));
  for (MlirOperation f = mlirOperationIsNull(prog) ? prog : wp_first_op_in(prog);
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    MlirBlock b = wp_op_is(f, "func.func")
                      ? mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0))
                      : (MlirBlock){NULL};
    if (!mlirBlockIsNull(b))
      return mlirBlockGetFirstOperation(b);
  }
  return (MlirOperation){NULL};
}

static MlirOperation find_constant(constant_finder *f, wp_arena *arena, MlirStringRef name) {
  if (!f->indexed) {
    MlirOperation k = f->next;
    while (!mlirOperationIsNull(k) && !wp_op_is(k, "hlo.constant"))
      k = mlirOperationGetNextInBlock(k);
    int64_t h = name_hash(name);
    if (!mlirOperationIsNull(k) && mlirStringRefEqual(constant_name(k), name) &&
        !wp_i64map_get(&f->guessed, h, NULL)) {
      wp_i64map_put(&f->guessed, h, 1);
      f->next = mlirOperationGetNextInBlock(k);
      return k;
    }
    f->indexed = true;
    constant_index_init(&f->ci, f->module, arena);
  }
  return constant_index_find(&f->ci, name);
}

static void constant_finder_free(constant_finder *f) {
  wp_i64map_free(&f->guessed);
  if (f->indexed)
    wp_i64map_free(&f->ci.by_hash);
}

static int piece_order(const void *a, const void *b) {
  const wp_place_piece *x = a, *y = b;
  return x->at < y->at ? -1 : x->at > y->at ? 1 : 0;
}

/* Who placed a piece, for messages: a memory location's name, or a table
 * row's set name (its location is that plus ".0"). */
typedef struct piece_owner {
  MlirStringRef name;
  bool row;
} piece_owner;

/* The pieces of one assembled file, as they are found. */
typedef struct piece_list {
  const char *file; /* its name, for messages */
  uint64_t size;
  wp_arena *arena;
  constant_finder *constants;
  wp_place_piece *pieces;
  piece_owner *owners;
  size_t n, cap;
  bool sorted;
  wp_error *err;
} piece_list;

/* Room for CAP pieces in PL. */
static void reserve_pieces(piece_list *pl, size_t cap) {
  if (cap <= pl->cap)
    return;
  pl->pieces = wp_xrealloc(pl->pieces, cap * sizeof *pl->pieces);
  pl->owners = wp_xrealloc(pl->owners, cap * sizeof *pl->owners);
  pl->cap = cap;
}

/* The value of HLO constant VALUE placed at AT, LEN bytes, by OWNER. */
static int add_piece(piece_list *pl, piece_owner owner, MlirStringRef value, int64_t at,
                     int64_t len) {
  const char *row = owner.row ? ".0" : "";
  int on = (int)owner.name.length, vn = (int)value.length;
  MlirOperation k = find_constant(pl->constants, pl->arena, value);
  if (mlirOperationIsNull(k))
    return wp_error_set(pl->err, "const file '%s': no HLO constant '%.*s' (for '%.*s%s')",
                        pl->file, vn, value.data, on, owner.name.data, row);
  if (at < 0 || len < 0 || (uint64_t)at > pl->size || (uint64_t)len > pl->size - (uint64_t)at)
    return wp_error_set(pl->err, "const file '%s' (%llu bytes): memory location '%.*s%s' lies "
                        "outside it", pl->file, (unsigned long long)pl->size, on,
                        owner.name.data, row);
  const void *bytes;
  uint64_t got;
  if (wp_hlo_constant_bytes(k, pl->arena, &bytes, &got, pl->err))
    return wp_error_prefix(pl->err, "const file '%s': constant '%.*s'", pl->file, vn,
                           value.data);
  if (got != (uint64_t)len)
    return wp_error_set(pl->err, "const file '%s': memory location '%.*s%s' is %lld bytes but "
                        "constant '%.*s' holds %llu", pl->file, on, owner.name.data, row,
                        (long long)len, vn, value.data, (unsigned long long)got);
  if (pl->n == pl->cap)
    reserve_pieces(pl, pl->cap ? 2 * pl->cap : 64);
  if (pl->n && pl->pieces[pl->n - 1].at > (uint64_t)at)
    pl->sorted = false;
  pl->owners[pl->n] = owner;
  pl->pieces[pl->n++] = (wp_place_piece){(uint64_t)at, bytes, (uint64_t)len};
  return 0;
}

/* Memory location OP's piece, when it is in one of GROUP's files. LAST_SET
 * is the set before it in the IR; SETS, the index of all sets, built only
 * when that guess fails. */
static int add_memloc_piece(piece_list *pl, const wp_strmap *group, MlirOperation func,
                            MlirOperation op, MlirOperation last_set, wp_bir_names *sets,
                            bool *sets_indexed) {
  MlirAttribute f = wp_attr(op, "const_file");
  MlirStringRef fname;
  if (mlirAttributeIsNull(f) || !mlirAttributeIsAFlatSymbolRef(f) ||
      (fname = wp_symref_value(f), !wp_strmap_get(group, fname.data, fname.length, NULL)))
    return 0;
  MlirAttribute set_ref = wp_attr(op, "set");
  MlirOperation set = {NULL};
  if (!mlirAttributeIsNull(set_ref) && mlirAttributeIsAFlatSymbolRef(set_ref)) {
    MlirStringRef want = wp_symref_value(set_ref), have;
    if (!mlirOperationIsNull(last_set) && wp_attr_str(last_set, "sym_name", &have) &&
        mlirStringRefEqual(have, want)) {
      set = last_set;
    } else {
      if (!*sets_indexed)
        wp_bir_names_init(sets, func, "bir.memloc_set");
      *sets_indexed = true;
      set = wp_bir_names_find(sets, want);
    }
  }
  piece_owner owner = {sym_name(op), false};
  MlirStringRef value;
  if (mlirOperationIsNull(set) || !wp_attr_str(set, "hlo_value", &value))
    return wp_error_set(pl->err, "const file '%s': memory location '%.*s' has no set with an "
                        "hlo_value", pl->file, (int)owner.name.length, owner.name.data);
  int64_t at = -1, len = -1;
  wp_attr_i64(op, "const_ap_offset", &at);
  wp_attr_i64(op, "size", &len);
  return add_piece(pl, owner, value, at, len);
}

/* A table's rows in one of GROUP's files: each row's hlo_value is its
 * name. */
static int add_table_pieces(piece_list *pl, const wp_strmap *group, MlirOperation op) {
  wp_bir_table t;
  if (wp_bir_table_open(op, &t, pl->err))
    return -1;
  /* at most every row: 100,000 rows grown by doubling held 131,072 */
  reserve_pieces(pl, pl->n + (size_t)t.n_rows + 1);
  for (intptr_t k = 0; k < t.n_rows; k++) {
    wp_bir_row r;
    wp_bir_table_row(&t, k, &r);
    if (!wp_strmap_get(group, r.const_file.data, r.const_file.length, NULL))
      continue;
    if (add_piece(pl, (piece_owner){r.name, true}, r.name, r.const_ap_offset, r.size))
      return -1;
  }
  return 0;
}

/* An assembled file: the value of each tensor placed in it (its set's
 * hlo_value) at its const_ap_offset, zeros between. The tensors are those
 * of every const file of the function assembled under the same LABEL:
 * dedup-consts gives each dtype of one file a file of its own, all with
 * the file's bytes. Tensors that share a region (bir-lower places
 * identical small constants once) must hold the same bytes there. */
static int assembled_source(MlirOperation module, MlirOperation cf, const char *name,
                            MlirStringRef label, uint64_t size, wp_arena *arena,
                            wp_place_src *src, wp_error *err) {
  if (mlirOperationIsNull(wp_bir_hlo_program(mlirModuleFromOperation(module))))
    return wp_error_set(err, "const file '%s' is assembled from the HLO program's constants, "
                        "and this module holds no HLO program (BIR JSON does not carry one: "
                        "write IR to pack later with --emit=bir-proto or as MLIR)", name);
  MlirOperation func = mlirOperationGetParentOperation(cf);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  /* A memory location follows its set in what bir-lower writes: the last
   * set seen is tried first, the index of all sets built only when that
   * guess fails. */
  wp_bir_names sets = {0};
  bool sets_indexed = false;
  MlirOperation last_set = {NULL};
  constant_finder cf_find = {.module = module, .next = first_program_op(module)};
  wp_i64map_init(&cf_find.guessed);
  piece_list pl = {.file = name, .size = size, .arena = arena, .constants = &cf_find,
                   .sorted = true, .err = err};
  wp_strmap group; /* names of the const files assembled under LABEL */
  wp_strmap_init(&group);
  int rc = -1;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef l, file;
    if (wp_op_is(op, "bir.const_file") && wp_attr_str(op, "assembled", &l) &&
        mlirStringRefEqual(l, label) && wp_attr_str(op, "sym_name", &file))
      wp_strmap_put(&group, file.data, file.length, 1);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (wp_op_is(op, "bir.memloc_set"))
      last_set = op;
    else if (wp_op_is(op, "bir.memloc") &&
             add_memloc_piece(&pl, &group, func, op, last_set, &sets, &sets_indexed))
      goto out;
    else if (wp_bir_is_table(op) && add_table_pieces(&pl, &group, op))
      goto out;
  }
  wp_place_piece *pieces = pl.pieces;
  piece_owner *owners = pl.owners;
  size_t n = pl.n;
  bool sorted = pl.sorted;
  if (!sorted) { /* hand-written IR: the message then gives the offset, not names */
    free(pl.owners);
    pl.owners = owners = NULL;
    qsort(pieces, n, sizeof *pieces, piece_order);
  }
  /* Made disjoint: a piece reaching into the ones before (a region two
   * tensors share, or a whole-file tensor merged in by dedup-consts) must
   * agree with what is there, and only its part beyond them is kept. */
  size_t k = 0;
  uint64_t end = 0;
  for (size_t i = 0; i < n; i++) {
    wp_place_piece p = pieces[i];
    if (k && p.at < end) {
      uint64_t overlap = (p.at + p.size < end ? p.at + p.size : end) - p.at;
      wp_place_src before = {.pieces = pieces, .n_pieces = k, .size = end};
      wp_arena_mark_t mark = wp_arena_mark(arena);
      unsigned char *have = wp_arena_alloc(arena, overlap ? (size_t)overlap : 1);
      wp_place_gather(&before, p.at, (size_t)overlap, have);
      bool differ = overlap && memcmp(have, p.data, (size_t)overlap) != 0;
      wp_arena_release(arena, mark);
      if (differ) {
        if (owners)
          wp_error_set(err, "const file '%s': memory locations '%.*s%s' and '%.*s%s' overlap "
                       "with other bytes", name, (int)owners[k - 1].name.length,
                       owners[k - 1].name.data, owners[k - 1].row ? ".0" : "",
                       (int)owners[i].name.length, owners[i].name.data,
                       owners[i].row ? ".0" : "");
        else
          wp_error_set(err, "const file '%s': memory locations overlap at offset %llu with "
                       "other bytes", name, (unsigned long long)p.at);
        goto out;
      }
      if (p.at + p.size <= end)
        continue;
      p.data = (const unsigned char *)p.data + (end - p.at);
      p.size -= end - p.at;
      p.at = end;
    }
    if (owners)
      owners[k] = owners[i];
    pieces[k++] = p;
    end = p.at + p.size;
  }
  /* The file ends where its last tensor does (as bir-lower lays it out):
   * a size of its own would be bytes no tensor gives, or a hand-written
   * claim of an exabyte of zeros. */
  uint64_t last = 0;
  for (size_t i = 0; i < k; i++)
    if (pieces[i].at + pieces[i].size > last)
      last = pieces[i].at + pieces[i].size;
  if (last != size) {
    wp_error_set(err, "const file '%s' says %llu bytes but its tensors end at %llu", name,
                 (unsigned long long)size, (unsigned long long)last);
    goto out;
  }
  wp_place_piece *kept = wp_arena_alloc(arena, (k ? k : 1) * sizeof *kept);
  if (k)
    memcpy(kept, pieces, k * sizeof *kept);
  src->pieces = kept;
  src->n_pieces = k;
  src->size = size;
  rc = 0;
out:
  free(pl.pieces);
  free(pl.owners);
  wp_strmap_free(&group);
  wp_bir_names_free(&sets);
  constant_finder_free(&cf_find);
  return rc;
}

/* A source region in a .npy must still be its payload: IR written after
 * bir-lower names the region, and a .npy rewritten since (another header
 * length, another shape) would be packed header bytes and all. (BIR this
 * run lowered was read from the file a moment ago: not checked again.) A
 * file that is no .npy (hand-written BIR naming raw bytes) or cannot be
 * read here is left to the reader, which reports it. */
static int npy_region_check(const char *name, const char *path, uint64_t offset,
                            uint64_t size, wp_error *err) {
  wp_npy_info info;
  wp_error why;
  int rc = wp_npy_file_header(path, &info, &why);
  if (rc > 0)
    return 0;
  if (rc < 0)
    return wp_error_set(err, "const file '%s': %s is no longer the .npy the IR names (%s)", name,
                        path, why.msg);
  if (info.data_offset != offset || info.data_size != size)
    return wp_error_set(err, "const file '%s': %s holds its payload at bytes %llu to %llu, but "
                        "the IR names %llu to %llu (the .npy was rewritten since the IR was "
                        "written, or the IR's offset or size is wrong)",
                        name, path, (unsigned long long)info.data_offset,
                        (unsigned long long)(info.data_offset + info.data_size),
                        (unsigned long long)offset, (unsigned long long)(offset + size));
  return 0;
}


int wp_bir_const_file_source(MlirOperation module, MlirOperation cf, bool read_back,
                             wp_arena *arena, wp_place_src *src, wp_error *err) {
  memset(src, 0, sizeof *src);
  int64_t size = 0;
  wp_attr_i64(cf, "size", &size);
  char *name = wp_bir_str(arena, cf, "sym_name");
  MlirAttribute source = wp_attr(cf, "source"), data = wp_attr(cf, "data");
  MlirStringRef constant;
  const void *bytes;
  uint64_t n = 0;
  /* CF is checked BIR (wp_bir_check_module): one source, of the right kinds */
  if (!mlirAttributeIsNull(source)) {
    MlirAttribute off = wp_dict_get(source, "offset");
    MlirStringRef fs = wp_str_value(wp_dict_get(source, "file"));
    src->path = wp_arena_strndup(arena, fs.data, fs.length);
    src->offset = (uint64_t)mlirIntegerAttrGetValueInt(off);
    src->size = (uint64_t)size;
    return read_back ? npy_region_check(name, src->path, src->offset, src->size, err) : 0;
  }
  if (wp_attr_str(cf, "constant", &constant)) {
    MlirOperation k = hlo_constant(module, constant);
    if (mlirOperationIsNull(k))
      return wp_error_set(err, "const file '%s': no HLO constant '%.*s'%s", name,
                          (int)constant.length, constant.data,
                          mlirOperationIsNull(wp_bir_hlo_program(mlirModuleFromOperation(module)))
                              ? " (this module holds no HLO program: BIR JSON does not carry "
                                "one; write IR to pack later with --emit=bir-proto or as MLIR)"
                              : "");
    if (wp_hlo_constant_bytes(k, arena, &bytes, &n, err))
      return wp_error_prefix(err, "const file '%s'", name);
  } else if (!mlirAttributeIsNull(data)) {
    if (wp_hlo_elements_bytes(arena, data, &bytes, &n, err))
      return wp_error_prefix(err, "const file '%s'", name);
  } else {
    MlirStringRef label = {"", 0};
    wp_attr_str(cf, "assembled", &label);
    return assembled_source(module, cf, name, label, (uint64_t)size, arena, src, err);
  }
  if (n != (uint64_t)size)
    return wp_error_set(err, "const file '%s' says %lld bytes but holds %llu", name,
                        (long long)size, (unsigned long long)n);
  src->data = bytes;
  src->size = n;
  return 0;
}
