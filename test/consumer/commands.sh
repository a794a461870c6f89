#!/usr/bin/env bash
# Every documented command on a plain install (issue 28.5): each `ergraph` and `ergraph-migrate`
# line of the ```sh blocks of README.md and docs/*.md, taken from the docs (not a copy), run in a
# project that has only `npm install ergraph` and tsx (the docs' dev tools) — no drizzle-orm, pg, PGlite, graphql-config — with
# ergraph-migrate installed elsewhere, as `npx ergraph-migrate` runs it from npx's own folder. A
# command may fail (a missing optional peer, an unreachable database), but in one line naming what
# is missing: no stack trace, no raw module error. Optional parts `[--x y]` run both left out and
# put in (the first choice of `a|b`); placeholders become local stand-ins (an unreachable
# database and URL, a small app module). serve and mcp --http run until they say where they
# listen, then are stopped.
#   bash test/consumer/commands.sh <project with ergraph installed> <repository root> <ergraph-migrate bin installed elsewhere>
set -euo pipefail
project="$1"
root="$2"
migrate="$3"
here="$(cd "$(dirname "$0")" && pwd)"
started=$(date +%s)
cd "$project"
mkdir -p src cmd-logs
# A small app of the user's: the consumer app's graph (its packages are peers npm installed).
cp "$here/app/src/graph.ts" src/graph.ts
echo "import { handler } from './graph.js'; export const apps = [{ name: 'demo', handler, description: 'users and tasks' }];" > src/apps.ts
printf 'query Users { User { getAll(limit: 1) { name } } }\n' > ops.graphql
printf 'type Query { a: Int }\n' > old.graphql
printf 'type Query { a: Int b: Int }\n' > schema.graphql

unreachable_db='postgres://ergraph@127.0.0.1:2/none'
# Lines of the docs' shell blocks that run a command of the package.
lines="$(awk 'FNR==1{inb=0} /^```(sh|bash|shell)/{inb=1;next} /^```/{inb=0;next} inb && /^(npx )?ergraph(-migrate)? /' "$root/README.md" "$root"/docs/*.md "$root/codemods/README.md" | sed -E 's/[[:space:]]+#.*$//' | sort -u)"
[ -n "$lines" ] || { echo "no ergraph commands found in the docs" >&2; exit 1; }

# A line with its optional parts left out, and with them put in.
variants() {
  local line="$1"
  echo "$line" | sed -E 's/ ?\[[^]]*\]//g'
  if [[ "$line" == *"["* ]]; then echo "$line" | sed -E 's/\[([^]]*)\]/\1/g; s/([a-z0-9]+)\|[a-z0-9|]+/\1/g'; fi
}

# Placeholders to local stand-ins; the command itself as written.
localize() {
  sed -E "s#postgres://…#$unreachable_db#g; s#https://api\.example\.com/graphql#http://127.0.0.1:2/graphql#g; s#^ergraph#npx ergraph#; s#^npx ergraph-migrate #$migrate #; s#^npx ergraph #node_modules/.bin/ergraph #"
}

failures=0
count=0
declare -A seen
while IFS= read -r doc_line; do
  while IFS= read -r variant; do
    cmd="$(echo "$variant" | localize)"
    [ -z "${seen[$cmd]:-}" ] || continue # the same line in several pages
    seen[$cmd]=1
    count=$((count + 1))
    log="cmd-logs/$count.log"
    case "$cmd" in
      *"ergraph serve"* | *"ergraph mcp"*"--http"*)
        # Long-running: wait for the line saying where it listens (or its exit), then stop it.
        cmd="${cmd/--port 4000/--port 0}"; cmd="${cmd/--port 8765/--port 0}"
        [[ "$cmd" == *"--port"* ]] || cmd="$cmd --port 0"
        setsid bash -c "exec $cmd" > "$log" 2>&1 < /dev/null &
        pid=$!
        for _ in $(seq 1 240); do
          grep -qE 'ergraph (serve|mcp): .*(GraphQL|MCP|http://)' "$log" && break
          kill -0 "$pid" 2>/dev/null || break
          sleep 0.5
        done
        grep -qE 'ergraph (serve|mcp): ' "$log" || { echo "   '$cmd' did not say where it listens:"; cat "$log"; failures=$((failures + 1)); }
        kill -TERM -- -"$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        code='stopped'
        ;;
      *)
        # stdio MCP ends when its input does; the rest are one-shot.
        code=0
        # The docs' "$DATABASE_URL" is the unreachable stand-in; other lines run without one.
        if [[ "$cmd" == *DATABASE_URL* ]]; then export DATABASE_URL="$unreachable_db"; else unset DATABASE_URL; fi
        timeout 120 bash -c "$cmd" > "$log" 2>&1 < /dev/null || code=$?
        [ "$code" = 124 ] && { echo "   '$cmd' did not end within 120 s"; failures=$((failures + 1)); }
        ;;
    esac
    if grep -qE '^[[:space:]]+at .+:[0-9]+|ERR_MODULE_NOT_FOUND|Cannot find (package|module)|node:internal' "$log"; then
      echo "   '$cmd' (docs: $doc_line) printed a stack trace or a raw module error:"
      sed 's/^/     /' "$log" | head -20
      failures=$((failures + 1))
    else
      echo "   exit $code: $cmd$( [ "$code" != 0 ] && [ "$code" != stopped ] && printf ' — %s' "$(grep -m1 -E '^(ergraph|ergraph-migrate)' "$log" || head -1 "$log")")"
    fi
  done < <(variants "$doc_line")
done <<< "$lines"
# What a plain install is told: doctor passes and lists what is unavailable; a command needing
# optional peers names all of them and the install line.
code=0; node_modules/.bin/ergraph doctor > doctor.out 2>&1 || code=$?
{ [ "$code" = 0 ] && grep -q "unavailable: ergraph/orm" doctor.out; } || { cat doctor.out; echo "   doctor on a plain install: exit $code, or no 'unavailable:' line"; failures=$((failures + 1)); }
line="$(node_modules/.bin/ergraph compat report --database "$unreachable_db" 2>&1 || true)"
[[ "$line" == "ergraph: compat report --database postgres:… needs pg and drizzle-orm, which are not installed: npm install pg@"* ]] || { echo "   compat report without pg: $line"; failures=$((failures + 1)); }
echo "   $count command lines run from the docs in $(( $(date +%s) - started )) s, $failures failed"
[ "$failures" = 0 ]
