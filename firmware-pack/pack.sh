#!/usr/bin/env bash
# Packs a built binary for a firmware image: firmware-pack/pack.sh x64|arm64
# → dist/firmware/edge-console-<version>-<arch>.tar.gz, a root file system overlay:
#   usr/bin/edge-console
#   lib/systemd/system/edge-console.service
#   etc/default/edge-console
#   usr/share/doc/edge-console/README.md
#   SHA256SUMS                 (of the files above)
# Build the binary first: npx tsx scripts/build.ts && npx tsx scripts/binary.ts
set -euo pipefail
cd "$(dirname "$0")/.."

arch=${1:-}
case "$arch" in
  x64|arm64) ;;
  *) echo "usage: firmware-pack/pack.sh x64|arm64" >&2; exit 2 ;;
esac
bin=dist/bin/edge-console-linux-$arch
[ -x "$bin" ] || { echo "pack: $bin missing; run npx tsx scripts/binary.ts" >&2; exit 1; }

version=$(node -p 'require("./package.json").version')
out=dist/firmware
name=edge-console-$version-$arch
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

install -D -m 0755 "$bin" "$stage/usr/bin/edge-console"
install -D -m 0644 firmware-pack/edge-console.service "$stage/lib/systemd/system/edge-console.service"
install -D -m 0644 firmware-pack/edge-console.default "$stage/etc/default/edge-console"
install -D -m 0644 firmware-pack/README.md "$stage/usr/share/doc/edge-console/README.md"
(cd "$stage" && find usr lib etc -type f | sort | xargs sha256sum > SHA256SUMS)

mkdir -p "$out"
# Fixed owner and times: the same binary always packs to the same archive.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' \
  -C "$stage" -czf "$out/$name.tar.gz" SHA256SUMS usr lib etc
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "pack: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1))"
