#!/usr/bin/env bash
# The consumer stage's checks that differ by Node and graphql (test/consumer/run.sh --quick) on
# Node 22 and on Node 24, both with graphql 17 (issue 28.2). Run after `npm run build` (.ci/run
# does). The two run side by side: most of their time is npm installs and compilers waiting on the
# registry and the disk, not on each other. Each one's log is printed whole when both are done.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
logs="$(mktemp -d "${TMPDIR:-/tmp}/ergraph-consumer-logs.XXXXXX")"
trap 'rm -rf "$logs"' EXIT
declare -A pids
for major in 22 24; do
  bin="$("$root/.ci/node.sh" "$major")"
  PATH="$bin:$PATH" bash "$root/test/consumer/run.sh" --quick > "$logs/node$major.log" 2>&1 &
  pids[$major]=$!
done
failed=""
for major in 22 24; do
  wait "${pids[$major]}" || failed="$failed $major"
done
for major in 22 24; do cat "$logs/node$major.log"; done
[ -z "$failed" ] || { echo "consumer checks failed on Node$failed (log above)" >&2; exit 1; }
