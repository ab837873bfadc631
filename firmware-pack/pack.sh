#!/usr/bin/env bash
# Packs a built binary for gateways: firmware-pack/pack.sh x64|arm64 [--binary FILE] [--out DIR]
# writes to DIR (default dist/firmware/):
#   edge-console-<version>-<arch>.tar.gz   a root file system overlay for image builders:
#       usr/bin/edge-console, lib/systemd/system/edge-console.service,
#       etc/default/edge-console, usr/share/doc/edge-console/README.md, SHA256SUMS
#   edge-console_<version>_<amd64|arm64>.deb   for Debian-based gateways (dpkg -i); its postinst
#       creates the edge-console system user and enables the unit
#   edge-console_<version>_<x86_64|aarch64_generic>.ipk   for OpenWrt releases with opkg: a gzipped
#       tar of ./debian-binary, ./control.tar.gz, ./data.tar.gz (as ipkg-build writes it), with a
#       procd init script instead of the systemd unit
# and a .sha256 beside each. --binary packs another file (tests pack a small stand-in).
# --node-red also writes the optional soft-gateway runtime for images (pure JavaScript, any arch):
#   edge-console-node-red-<node-red version>.tar.gz   overlay: usr/lib/edge-console/node-red/
#   edge-console-node-red_<node-red version>_all.deb  the same for dpkg (Depends: edge-console)
# taken from this project's node_modules (firmware-pack/node-red-closure.mjs), where the binary
# finds it by default (../lib/edge-console/node-red beside /usr/bin/edge-console).
# Build the binary first: npx tsx scripts/build.ts && npx tsx scripts/binary.ts
set -euo pipefail
cd "$(dirname "$0")/.."

arch=${1:-}
case "$arch" in
  x64|arm64) ;;
  *) echo "usage: firmware-pack/pack.sh x64|arm64 [--binary FILE] [--out DIR] [--node-red]" >&2; exit 2 ;;
esac
shift
bin=dist/bin/edge-console-linux-$arch
out=dist/firmware
with_node_red=
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --node-red) with_node_red=1; shift ;;
    *) echo "pack: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "pack: $bin missing or not executable; run npx tsx scripts/binary.ts" >&2; exit 1; }
command -v dpkg-deb >/dev/null || { echo "pack: dpkg-deb is needed for the .deb (apt install dpkg)" >&2; exit 1; }

version=$(node -p 'require("./package.json").version')
name=edge-console-$version-$arch
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out"
# Fixed owner and times: the same binary always packs to the same archives.
export SOURCE_DATE_EPOCH=0
tarball() { tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' "$@"; }
checksum() { (cd "$out" && sha256sum "$1" > "$1.sha256"); }

# --- the overlay tarball
root=$stage/overlay
install -D -m 0755 "$bin" "$root/usr/bin/edge-console"
install -D -m 0644 firmware-pack/edge-console.service "$root/lib/systemd/system/edge-console.service"
install -D -m 0644 firmware-pack/edge-console.default "$root/etc/default/edge-console"
install -D -m 0644 firmware-pack/README.md "$root/usr/share/doc/edge-console/README.md"
(cd "$root" && find usr lib etc -type f | sort | xargs sha256sum > SHA256SUMS)
tarball -C "$root" -czf "$out/$name.tar.gz" SHA256SUMS usr lib etc
checksum "$name.tar.gz"
echo "pack: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1))"

# --- the .deb: the overlay's files, a drop-in running the service as its own user, maintainer scripts
deb_arch=$([ "$arch" = x64 ] && echo amd64 || echo arm64)
deb=$stage/deb
mkdir -p "$deb"
cp -a "$root/usr" "$root/lib" "$root/etc" "$deb/"
install -D -m 0644 firmware-pack/deb/user.conf "$deb/lib/systemd/system/edge-console.service.d/user.conf"
install -D -m 0755 firmware-pack/deb/postinst "$deb/DEBIAN/postinst"
install -D -m 0755 firmware-pack/deb/prerm "$deb/DEBIAN/prerm"
install -D -m 0755 firmware-pack/deb/postrm "$deb/DEBIAN/postrm"
echo /etc/default/edge-console > "$deb/DEBIAN/conffiles"
size_kb=$(du -sk --exclude=DEBIAN "$deb" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$deb_arch/" -e "s/@SIZE@/$size_kb/" firmware-pack/deb/control > "$deb/DEBIAN/control"
deb_file=edge-console_${version}_${deb_arch}.deb
dpkg-deb --root-owner-group -Zgzip --build "$deb" "$out/$deb_file" >/dev/null
checksum "$deb_file"
echo "pack: $out/$deb_file ($(du -h "$out/$deb_file" | cut -f1))"

# --- the .ipk: the binary, a procd init script and the settings file; no systemd on OpenWrt
ipk_arch=$([ "$arch" = x64 ] && echo x86_64 || echo aarch64_generic)
ipk=$stage/ipk
install -D -m 0755 "$bin" "$ipk/data/usr/bin/edge-console"
install -D -m 0755 firmware-pack/ipk/edge-console.init "$ipk/data/etc/init.d/edge-console"
install -D -m 0644 firmware-pack/edge-console.default "$ipk/data/etc/default/edge-console"
mkdir -p "$ipk/control"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$ipk_arch/" -e "s/@SIZE@/$(du -sb "$ipk/data" | cut -f1)/" firmware-pack/ipk/control > "$ipk/control/control"
install -m 0755 firmware-pack/ipk/postinst firmware-pack/ipk/prerm "$ipk/control/"
echo /etc/default/edge-console > "$ipk/control/conffiles"
echo 2.0 > "$ipk/debian-binary"
tarball -C "$ipk/data" -czf "$ipk/data.tar.gz" .
tarball -C "$ipk/control" -czf "$ipk/control.tar.gz" .
ipk_file=edge-console_${version}_${ipk_arch}.ipk
tarball -C "$ipk" -czf "$out/$ipk_file" ./debian-binary ./control.tar.gz ./data.tar.gz
checksum "$ipk_file"
echo "pack: $out/$ipk_file ($(du -h "$out/$ipk_file" | cut -f1))"

# --- optional: the Node-RED runtime the soft gateway starts (issue 29), for images that want it
[ -n "$with_node_red" ] || exit 0
[ -f node_modules/node-red/package.json ] || { echo "pack: --node-red needs node_modules/node-red (npm ci)" >&2; exit 1; }
nr_version=$(node -p 'require("./node_modules/node-red/package.json").version')
nr=$stage/node-red
node firmware-pack/node-red-closure.mjs "$PWD/node_modules" "$nr/usr/lib/edge-console/node-red" >/dev/null
nr_name=edge-console-node-red-$nr_version
tarball -C "$nr" -czf "$out/$nr_name.tar.gz" usr
checksum "$nr_name.tar.gz"
echo "pack: $out/$nr_name.tar.gz ($(du -h "$out/$nr_name.tar.gz" | cut -f1))"
sed -e "s/@VERSION@/$nr_version/" -e "s/@GATEWAY_VERSION@/$version/" -e "s/@SIZE@/$(du -sk "$nr" | cut -f1)/" firmware-pack/deb/node-red.control > "$stage/nr-control"
install -D -m 0644 "$stage/nr-control" "$nr/DEBIAN/control"
nr_deb=edge-console-node-red_${nr_version}_all.deb
dpkg-deb --root-owner-group -Zgzip --build "$nr" "$out/$nr_deb" >/dev/null
checksum "$nr_deb"
echo "pack: $out/$nr_deb ($(du -h "$out/$nr_deb" | cut -f1))"
