#!/bin/bash
# `make run` from a fresh clone, to its first 200 (BENCHMARKS.md, "catalogue changes"): clones REF of
# this repository into a temporary folder, times `make install` apart, then `make run` until
# GET /api/v1/fleet/vehicles?limit=1 answers 200 with the key it prints; then a second `make run` with
# nothing changed. The Node toolchain is linked from this checkout when it has one (as worktrees do),
# so that the figure is the project's, not the download of Node.
#
# Usage: bench/fresh-clone-run.sh [REF] [PORT]   (default: HEAD, 18971; PORT+1 is the sandbox's)
set -u
ref=${1:-HEAD}
port=${2:-18971}
repo=$(git rev-parse --show-toplevel)
dir=$(mktemp -d /tmp/odg-fresh-clone-XXXX)
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/clone" && cd "$dir/clone" && git checkout -q "$ref" || exit 2
[ -e "$repo/.toolchain" ] && ln -s "$(readlink -f "$repo/.toolchain")" .toolchain
export PATH=$PWD/.toolchain/bin:$PATH
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# Starts `make run` in its own process group, prints the ms to the first 200, stops it.
first_200() {
  local log=$1 started pg key
  started=$(date +%s%N)
  PORT=$port SANDBOX_PORT=$((port + 1)) setsid make run > "$log" 2>&1 &
  pg=$!
  until key=$(grep -o "export API_KEY=[0-9a-f]*" "$log" | cut -d= -f2) && [ -n "$key" ] &&
    [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$port/api/v1/fleet/vehicles?limit=1&total=false")" = 200 ]; do
    sleep 0.2
    [ "$(ms "$started")" -gt 900000 ] && { echo "no 200 within 15 minutes: $(tail -5 "$log")" >&2; kill -TERM -"$pg"; exit 1; }
  done
  ms "$started"
  kill -TERM -"$pg"
  wait "$pg" 2> /dev/null
}

started=$(date +%s%N)
make -s install > "$dir/install.log" 2>&1 || { cat "$dir/install.log"; exit 1; }
install=$(ms "$started")
first=$(first_200 "$dir/run.log")
second=$(first_200 "$dir/run2.log")
echo "$ref: install ${install} ms, make run to first 200 ${first} ms (total $((install + first)) ms), second make run ${second} ms; load average $(cut -d' ' -f1-3 /proc/loadavg)"
