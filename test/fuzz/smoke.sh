#!/usr/bin/env bash
# Runs every libFuzzer harness of a WP_FUZZ build for a short while on its
# seed corpus; any crash, sanitizer report, leak, timeout or harness
# check fails the run. CI runs it (setup.sh test), so that the harnesses
# keep building and running as the code changes.
#
#   test/fuzz/smoke.sh BUILD_DIR [SECONDS [HARNESS...]]
#
# BUILD_DIR was configured with -DWP_FUZZ=ON and built (target wp_fuzz).
# SECONDS per harness (default 15); HARNESS names limit the run (default:
# every BUILD_DIR/fuzz/fuzz_*). Everything it writes is under
# BUILD_DIR/fuzz-smoke, made afresh: the seeds (seeds/NAME, from
# examples/, test/data and the lit tests' generators, BIR and NEFF seeds
# written by BUILD_DIR's opt), the corpus each run grows (corpus/NAME, a
# copy of the seeds), each run's log (NAME.log), scratch files (tmp/,
# TMPDIR) and what crashed (crash-NAME-*). A finding reproduces with
#   cd BUILD_DIR/fuzz-smoke && TMPDIR=$PWD/tmp ../fuzz/NAME crash-NAME-...
# For a longer campaign, give more SECONDS (and -jobs, by hand).
set -eEuo pipefail # -E: the ERR trap below also fires in functions

src=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [SECONDS [HARNESS...]]" >&2; exit 2; }
build=$(cd "$1" && pwd)
secs=${2:-15}
shift $(($# < 2 ? $# : 2))
[ -x "$build/bin/opt" ] && [ -d "$build/fuzz" ] ||
  { echo "smoke: $build is not a built WP_FUZZ=ON build (target wp_fuzz)" >&2; exit 2; }

out=$build/fuzz-smoke
rm -rf "$out"
mkdir -p "$out/seeds" "$out/corpus" "$out/tmp" "$out/gen"
export TMPDIR=$out/tmp
export PYTHONDONTWRITEBYTECODE=1 # the generators run from the source tree: no __pycache__ there
# opt and neff write the seeds and end without freeing what the kernel
# takes back anyway (opt.c): no leak report for them.
seed_env=(env ASAN_OPTIONS=detect_leaks=0)
opt=("${seed_env[@]}" "$build/bin/opt")
neff=("${seed_env[@]}" "$build/bin/neff")
py=/usr/bin/python3
[ -x $py ] || py=python3

# ---- seeds ------------------------------------------------------------------
# What the tools say while writing them goes to seeds.log, shown when one
# fails.
exec 3>&2 2>"$out/seeds.log"
trap 'echo "smoke: writing the seeds failed; $out/seeds.log:" >&3; tail -n 30 "$out/seeds.log" >&3' ERR
seeds() { mkdir -p "$out/seeds/$1"; echo "$out/seeds/$1"; }
gen=$out/gen

# HLO: real XLA output, the example MLP, every importer scenario of the lit
# tests, and the model directories their inline-weights tests build.
hlo=$(seeds hlo)
cp "$src"/test/data/hlo-real/*.pb "$hlo/"
cp "$src/examples/mlp/model.hlo.pb" "$hlo/mlp.pb"
"$py" - "$src/test/lit/Inputs" "$hlo" <<'EOF'
import os, sys
sys.path.insert(0, sys.argv[1])
import hlogen
for name, make in hlogen.SCENARIOS.items():
    open(os.path.join(sys.argv[2], name + ".pb"), "wb").write(make())
EOF
models=("$src/examples/mlp")
for kind in dtypes layouts object wrapper dedup; do
  "$py" "$src/test/lit/Inputs/npymodel.py" "$kind" "$gen/$kind" >/dev/null
  models+=("$gen/$kind")
  cp "$gen/$kind/model.hlo.pb" "$hlo/npymodel-$kind.pb"
done

npy=$(seeds npy)
meta=$(seeds meta)
for m in "${models[@]}"; do
  tag=$(basename "$m")
  for f in $(cd "$m" && find . -name '*.npy'); do
    cp "$m/$f" "$npy/$tag-$(echo "${f#./}" | tr / _)"
  done
  cp "$m/metadata.json" "$meta/$tag.json"
done

# BIR (protobuf and JSON) and NEFFs, as opt writes them: from the models
# with their weights, and from the real HLO (parameters stay inputs).
bir=$(seeds bir)
birj=$(seeds birjson)
neffs=$(seeds neff)
i=0
lower() { # INPUT [opt args...]: one BIR protobuf, one BIR JSON, one NEFF
  local in=$1; shift
  i=$((i + 1))
  "${opt[@]}" "$in" "$@" --bir-lower --emit=bir-proto -o "$bir/$i.bir"
  "${opt[@]}" "$in" "$@" --bir-lower="const-tables=1" --emit=bir-json -o "$birj/$i.json"
  "${opt[@]}" "$in" "$@" --bir-lower --neff-pack -o "$neffs/$i.neff" >/dev/null
}
for m in "${models[@]}"; do
  lower "$m" --inline-weights
done
for f in "$src"/test/data/hlo-real/*.pb; do
  lower "$f"
done
"${opt[@]}" "$src/examples/mlp" --inline-weights --bir-lower --neff-pack="weights-format=bin" \
  -o "$neffs/mlp-bin.neff" >/dev/null

# The NEFF harnesses: the whole file, its gzip payload, the tar in it;
# fuzz_neff_json takes a byte 0 and a BIR JSON, or a byte 1 and a bom.json.
gz=$(seeds neffgz)
tar=$(seeds nefftar)
njs=$(seeds neffjson)
for f in "$neffs"/*.neff; do
  b=$(basename "$f" .neff)
  tail -c +1025 "$f" > "$gz/$b.gz"
  gzip -dc < "$gz/$b.gz" > "$tar/$b.tar"
  { printf '\001'; "${neff[@]}" cat "$f" bom.json; } > "$njs/bom-$b"
done
for f in "$birj"/*.json; do
  { printf '\000'; cat "$f"; } > "$njs/bir-$(basename "$f" .json)"
done

# HLO text: the lit tests' modules, and the real protos printed as text.
htxt=$(seeds hlotext)
cp "$src"/test/lit/hlo-text/*.hlo "$htxt/" 2>/dev/null || true
for f in "$src"/test/data/hlo-real/*.pb; do
  "${opt[@]}" "$f" --emit=hlo-text -o "$htxt/$(basename "$f" .pb).hlo" 2>/dev/null || true
done

seeds_of() { # harness -> its seed directory
  case $1 in
    fuzz_hlo_import | fuzz_pipeline) echo "$hlo" ;;
    fuzz_hlo_text) echo "$htxt" ;;
    fuzz_npy) echo "$npy" ;;
    fuzz_model_dir) echo "$meta" ;;
    fuzz_bir_proto) echo "$bir" ;;
    fuzz_bir_json) echo "$birj" ;;
    fuzz_neff_raw) echo "$neffs" ;;
    fuzz_neff_gz) echo "$gz" ;;
    fuzz_neff_tar) echo "$tar" ;;
    fuzz_neff_json) echo "$njs" ;;
    *) echo "" ;;
  esac
}

exec 2>&3 3>&-
trap - ERR

# ---- the runs -----------------------------------------------------------------
if [ $# -gt 0 ]; then
  harnesses=("$@")
else
  harnesses=()
  for h in "$build"/fuzz/fuzz_*; do harnesses+=("$(basename "$h")"); done
fi
cd "$out" # libFuzzer writes crash-*, leak-*, timeout-* files into the cwd
failed=()
start=$SECONDS
for h in "${harnesses[@]}"; do
  corpus=$out/corpus/$h
  mkdir -p "$corpus"
  s=$(seeds_of "$h")
  if [ -n "$s" ]; then
    cp "$s"/* "$corpus/"
  else
    echo "smoke: $h has no seeds in smoke.sh; it starts from nothing" >&2
  fi
  dict=()
  [ -f "$src/test/fuzz/$h.dict" ] && dict=("-dict=$src/test/fuzz/$h.dict")
  # one process, no fork: the harnesses' scratch directories are per process
  if "$build/fuzz/$h" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$out/crash-$h-" -print_final_stats=1 "${dict[@]}" "$corpus" \
      > "$out/$h.log" 2>&1; then
    echo "smoke: $h ok: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$out/$h.log" |
      grep -o '[0-9]*$') inputs in ${secs} s, corpus $(ls "$corpus" | wc -l) files" >&2
  else
    failed+=("$h")
    echo "smoke: $h FAILED; the end of $out/$h.log:" >&2
    tail -n 60 "$out/$h.log" >&2
    for c in "$out/crash-$h-"*; do
      [ -f "$c" ] && echo "smoke: input $c (base64): $(base64 -w0 < "$c" | head -c 4000)" >&2
    done
  fi
done
echo "smoke: ${#harnesses[@]} harnesses in $((SECONDS - start)) s" >&2
if [ ${#failed[@]} -gt 0 ]; then
  echo "smoke: failed: ${failed[*]}" >&2
  exit 1
fi
