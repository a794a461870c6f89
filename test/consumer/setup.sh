#!/usr/bin/env bash
# The setup docs/install.md gives per package manager, run as written (issue 28.6): in a fresh
# `npm init` project for npm, pnpm (its current major) and yarn 1, the `setup-<pm>` block (the one change: `ergraph`
# is the packed tarball), then the `tsc-init` block, on the README's first graph plus imports of
# every peer the user's code imports. Then the user's own imports under tsx, and a vitest test
# with the `vitest-config` block passing handler.schema to graphql's own functions.
#   bash test/consumer/setup.sh <tarball> <work dir> [npm pnpm yarn]
set -euo pipefail
tgz="$1"
work="$2"
shift 2
managers=("${@:-npm pnpm yarn}")
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
doc="$root/docs/install.md"

# The ```sh/```js block right under `<!-- consumer: NAME -->` in docs/install.md.
block() {
  awk -v name="$1" '$0 ~ "<!-- consumer: " name " -->" {want=1; next} want && /^```/ {if (inb) exit; inb=1; next} inb {print}' "$doc"
}

for pm in ${managers[*]}; do
  started=$(date +%s)
  dir="$work/setup-$pm"
  mkdir -p "$dir/src" "$dir/test" && cd "$dir"
  npm init -y > /dev/null
  lines="$(block "setup-$pm")"
  [ -n "$lines" ] || { echo "docs/install.md has no setup-$pm block" >&2; exit 1; }
  case "$pm" in
    npm) tarball="$tgz" ;;
    pnpm) tarball="$tgz" ;;
    yarn) tarball="file:$tgz" ;;
  esac
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    run="$(echo "$line" | sed -E "s#^(npm install|pnpm add|yarn add) ergraph #\1 $tarball #")"
    # pnpm and yarn through npx, as CI has neither installed; the words after them are the docs'.
    run="$(echo "$run" | sed -E 's#^pnpm #npx -y pnpm@latest #; s#^yarn #npx -y yarn@1 #')"
    echo "   $pm: $line"
    bash -c "$run" > install.log 2>&1 || { cat install.log; echo "'$line' failed" >&2; exit 1; }
  done <<< "$lines"

  # The user's code: the README's first graph, and an import of each peer they use themselves.
  {
    cat "$here/readme-preludes/first-graph.ts"
    awk '/readme-check: prelude first-graph run/{f=1;next} f&&/^```ts/{g=1;next} g&&/^```/{exit} g' "$root/README.md"
    cat <<'TS'
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import DataLoader from 'dataloader';
import { graphql } from 'graphql';
console.log(JSON.stringify({ views: views.length, imports: [typeof Hono, typeof serve, typeof DataLoader, typeof graphql] }));
TS
  } > src/main.ts
  grep -q "const views" src/main.ts || { echo "the README's first graph no longer declares views: update setup.sh" >&2; exit 1; }
  expected='{"views":2,"imports":["function","function","function","function"]}'

  while IFS= read -r line; do
    [ -n "$line" ] || continue
    bash -c "$line" > tsc.log 2>&1 || { cat tsc.log; echo "$pm: '$line' (docs/install.md tsc-init) failed" >&2; exit 1; }
  done <<< "$(block tsc-init)"
  [ "$(tail -1 tsc.log)" = "$expected" ] || { cat tsc.log; echo "$pm: node dist/main.js printed something else" >&2; exit 1; }

  npx tsx src/main.ts > tsx.out 2>&1 || { cat tsx.out; echo "$pm: tsx src/main.ts failed" >&2; exit 1; }
  [ "$(tail -1 tsx.out)" = "$expected" ] || { cat tsx.out; echo "$pm: tsx printed something else" >&2; exit 1; }

  block vitest-config > vitest.config.ts
  cp "$here/app/src/graph.ts" src/graph.ts
  cp "$here/app/test/schema.test.ts" test/schema.test.ts
  npx vitest run > vitest.log 2>&1 || { cat vitest.log; echo "$pm: vitest with the documented config failed" >&2; exit 1; }
  echo "   $pm: install lines, tsx, tsc --init as documented + node, vitest: passed ($(( $(date +%s) - started )) s)"
done
