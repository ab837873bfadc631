#!/usr/bin/env bash
# Starts dist/bin/edge-console-linux-arm64 under qemu user-mode emulation on a free loopback port
# with a temporary data dir, and passes when GET /api/health answers 200. Run after
# `npx tsx scripts/binary.ts`. Needs qemu-user-static and the arm64 cross libc (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=dist/bin/edge-console-linux-arm64
qemu=$(command -v qemu-aarch64-static || true)
[ -x "$bin" ] || { echo "smoke-arm64: $bin missing; run npx tsx scripts/binary.ts" >&2; exit 1; }
[ -n "$qemu" ] || { echo "smoke-arm64: qemu-aarch64-static not installed" >&2; exit 1; }
[ -d /usr/aarch64-linux-gnu/lib ] || { echo "smoke-arm64: /usr/aarch64-linux-gnu missing (libc6-arm64-cross)" >&2; exit 1; }

data=$(mktemp -d)
log="$data.log"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$data" "$log" "$data.health"
}
trap cleanup EXIT

# A port nothing listens on: bind 0, read it, release it.
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

start=$(date +%s%N)
"$qemu" -L /usr/aarch64-linux-gnu "$bin" --host 127.0.0.1 --port "$port" --mqtt-port 0 --mqtts-port 0 --tcp-port 0 \
  --data-dir "$data" --log-level warn >"$log" 2>&1 &
pid=$!

status=000
for _ in $(seq 1 600); do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "smoke-arm64: the binary exited early:" >&2
    cat "$log" >&2
    exit 1
  fi
  status=$(curl -s -o "$data.health" -w '%{http_code}' "http://127.0.0.1:$port/api/health" || true)
  [ "$status" = 200 ] && break
  sleep 0.1
done
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))

if [ "$status" != 200 ]; then
  echo "smoke-arm64: no health 200 within 60 s (last status $status):" >&2
  cat "$log" >&2
  exit 1
fi
version=$("$qemu" -L /usr/aarch64-linux-gnu "$bin" --version)
echo "smoke-arm64: $(cat "$data.health") ($version, first health 200 after ${elapsed} ms under qemu)"
