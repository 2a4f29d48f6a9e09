#!/usr/bin/env bash
# ctest build-systems-bazel: the installed weightpack_neff rule under
# Debian's bazel (bazel-bootstrap 4.2.3):
#   1. build a NEFF; it equals opt's;
#   2. bazel clean, build again with --disk_cache: taken from the cache
#      (Bazel's summary: "1 remote cache hit", as Bazel 4 counts disk hits
#      too), cmp-equal;
#   3. the same through an HTTP remote cache: nginx with WebDAV PUT on
#      127.0.0.1, started and stopped here; the first build fills it, the
#      one after a clean takes the NEFF from it.
# Everything (Bazel's output root, the caches, nginx's files) lies under
# BUILD/build-systems-bazel; Bazel's server and nginx are stopped at the
# end, also on failure. Usage: bazel_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
root=$build/build-systems-bazel
if [ -d "$root" ]; then chmod -R u+w "$root"; rm -rf "$root"; fi # Bazel's outputs are read-only
mkdir -p "$root/ws" "$root/tmp"
export TMPDIR=$root/tmp

cmake --install "$build" --prefix "$root/prefix" >/dev/null
cp -r "$src/examples/mlp" "$root/ws/mlp"
cp "$root/ws/mlp/weights/w1.npy" "$root/ws/mlp/unused.npy"
cat > "$root/ws/WORKSPACE" <<EOW
new_local_repository(
    name = "weightpack",
    path = "$root/prefix",
    build_file = "$root/prefix/share/weightpack/bazel/weightpack.BUILD",
)
EOW
cat > "$root/ws/BUILD.bazel" <<'EOB'
load("@weightpack//share/weightpack/bazel:defs.bzl", "weightpack_neff")

weightpack_neff(
    name = "mlp",
    metadata = "mlp/metadata.json",
    srcs = ["mlp/model.hlo.pb"] + glob(["mlp/weights/*.npy"]),
    out = "mlp.neff",
)
EOB
"$root/prefix/bin/weightpack-opt" "$root/ws/mlp" --inline-weights --bir-lower --neff-pack \
  -o "$root/opt.neff" 2>/dev/null

# Debian's system rc names its install base; read no rc file, name it here.
startup=(--output_user_root="$root/user-root" --install_base=/usr/share/bazel
         --trust_install_base --nohome_rc --nosystem_rc --max_idle_secs=300)
flags=(--curses=no --color=no --spawn_strategy=local --host_javabase=@local_jdk//:jdk)
nginx_pid=
cleanup() {
  (cd "$root/ws" && bazel "${startup[@]}" shutdown) >/dev/null 2>&1 || true
  if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# Builds //:mlp with ARGS; its log in $root/LOG.log
build_mlp() { # log, args...
  local log=$1; shift
  (cd "$root/ws" && bazel "${startup[@]}" build //:mlp "${flags[@]}" "$@") >"$root/$log.log" 2>&1 ||
    { cat "$root/$log.log" >&2; echo "bazel_test: the $log build failed" >&2; exit 1; }
  cmp "$root/ws/bazel-bin/mlp.neff" "$root/opt.neff" ||
    { echo "bazel_test: $log: the NEFF differs from opt's" >&2; exit 1; }
}
expect() { # log, pattern: the summary line must say so
  grep -q "$2" "$root/$1.log" ||
    { cat "$root/$1.log" >&2; echo "bazel_test: $1: expected '$2'" >&2; exit 1; }
}
clean() { (cd "$root/ws" && bazel "${startup[@]}" clean) >/dev/null 2>&1; }

build_mlp first --disk_cache="$root/disk-cache"
expect first "processes: .*1 local"
clean
build_mlp disk --disk_cache="$root/disk-cache"
expect disk "processes: 1 remote cache hit, 1 internal"

# The HTTP cache: Bazel GETs and PUTs /ac/ and /cas/ entries; nginx's
# WebDAV module stores a PUT as a file.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$root/nginx/logs" "$root/http-cache"
cat > "$root/nginx/nginx.conf" <<EON
worker_processes 1;
$( [ "$(id -u)" = 0 ] && echo "user $(id -un) $(id -gn);" )
daemon off;
pid $root/nginx/nginx.pid;
error_log $root/nginx/logs/error.log;
events { worker_connections 64; }
http {
  access_log $root/nginx/logs/access.log;
  client_body_temp_path $root/nginx/body;
  proxy_temp_path $root/nginx/proxy;
  fastcgi_temp_path $root/nginx/fastcgi;
  uwsgi_temp_path $root/nginx/uwsgi;
  scgi_temp_path $root/nginx/scgi;
  client_max_body_size 0;
  server {
    listen 127.0.0.1:$port;
    root $root/http-cache;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw;
    }
  }
}
EON
/usr/sbin/nginx -e "$root/nginx/logs/error.log" -p "$root/nginx" -c "$root/nginx/nginx.conf" &
nginx_pid=$!
for _ in $(seq 50); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
  sleep 0.1
done
kill -0 "$nginx_pid" 2>/dev/null ||
  { cat "$root/nginx/logs/error.log" >&2; echo "bazel_test: nginx did not start" >&2; exit 1; }
clean
build_mlp http-fill --remote_cache="http://127.0.0.1:$port"
expect http-fill "processes: .*1 local"
[ -n "$(ls "$root/http-cache/cas")" ] || { echo "bazel_test: nothing PUT into the HTTP cache" >&2; exit 1; }
clean
build_mlp http --remote_cache="http://127.0.0.1:$port"
expect http "processes: 1 remote cache hit, 1 internal"
echo "bazel_test: disk and HTTP caches gave the NEFF back, cmp-equal to opt's"
