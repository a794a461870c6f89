#!/usr/bin/env bash
# graphql 17 on Node 22 (issue 28.1): type-check, then run the GraphQL, compat, MCP and codemod
# suites (both executors) again, in a copy of the checkout whose node_modules gets graphql 17 —
# the checkout itself keeps graphql 16. Run after `npm install` and `npm run build` (.ci/run does).
# With arguments, runs them in that copy instead of the suites, e.g. the GraphQL bench on 17
# (issue 31.5): `.ci/graphql17.sh npm run bench -- graphql`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
PATH="$("$root/.ci/node.sh" 22):$PATH"
if [ -n "${ERGRAPH_GRAPHQL17_COPY:-}" ]; then
  # .ci/run copies the checkout before npm test starts writing into it, then runs this beside it.
  copy="$ERGRAPH_GRAPHQL17_COPY"
else
  copy="$(mktemp -d "${TMPDIR:-/tmp}/ergraph-graphql17.XXXXXX")"
  # dist/ comes along (the CLI suites run the built bins) with its times, so it stays up to date.
  tar -C "$root" --exclude=./.git -cf - . | tar -C "$copy" -xf -
fi
trap 'rm -rf "$copy"' EXIT
cd "$copy"
npm install graphql@17 --no-save --no-audit --no-fund > graphql17-install.log 2>&1 || { cat graphql17-install.log; exit 1; }
version="$(node -p "JSON.parse(require('fs').readFileSync('node_modules/graphql/package.json', 'utf8')).version")"
[ "${version%%.*}" = 17 ] || { echo "expected graphql 17 in the copy, got $version" >&2; exit 1; }
echo "== graphql $version on Node $(node -v)"
if [ $# -gt 0 ]; then "$@"; exit; fi
npx tsc -p tsconfig.json --noEmit
workers=()
if [ -n "${ERGRAPH_GRAPHQL17_GATE:-}" ]; then
  # .ci/run prepares this beside npm test (copy, install, type-check) and writes the gate file
  # when a core is free for the suites, with the number of forks they get: 1 while npm test still
  # runs in the other, 2 once it is done (vitest's default is one fork on 2 cores).
  echo "== graphql 17: installed and type-checked; the suites wait for a free core"
  while [ ! -s "$ERGRAPH_GRAPHQL17_GATE" ]; do sleep 1; done
  workers=(--maxWorkers="$(cat "$ERGRAPH_GRAPHQL17_GATE")")
  echo "== graphql 17: the suites start in ${workers[0]#--maxWorkers=} fork(s)"
fi
# The compiled executor's project only: the graphql-js executor's run on 17 is left to the
# developer (`--project 'graphql-js executor'`), to keep CI inside its time budget.
npx vitest run --project ergraph ${workers[@]+"${workers[@]}"} test/graphql test/compat test/mcp test/codemods
