#!/usr/bin/env bash
# Every export path of the package on a plain install (issue 28.5), by ESM import and by CommonJS
# require: a path that needs no optional peer loads; a path that needs a missing one fails with
# the one-line message naming the package and its install command (what it throws is that line
# exactly), never Node's raw ERR_MODULE_NOT_FOUND. The paths come from package.json's `exports`,
# so a new one is checked without editing this file. Also a function that needs missing peers
# (openUsageStore on postgres://…).
#   bash test/consumer/import-paths.sh <project with only ergraph installed> <repository root>
set -euo pipefail
project="$1"
root="$2"
cd "$project"
# The install command names the package manager that runs the process; this checks npm's words.
unset npm_config_user_agent
# The optional peers each path needs (the rest need none); DESIGN.md's import paths, doctor's list.
declare -A needs=(["ergraph/orm"]="drizzle-orm")
for peer in "${needs[@]}"; do
  [ ! -d "node_modules/$peer" ] || { echo "   $peer is installed in $project: this check needs a project without it" >&2; exit 1; }
done
mapfile -t subs < <(node -p "Object.keys(require('$root/package.json').exports).map((k) => k.slice(1)).join('\n')")
failures=0
for sub in "${subs[@]}"; do
  spec="ergraph$sub"
  for how in import require; do
    if [ "$how" = import ]; then
      load=(node --input-type=module -e "await import('$spec')")
      caught=(node --input-type=module -e "try { await import('$spec') } catch (e) { console.log(e.message) }")
    else
      load=(node --input-type=commonjs -e "require('$spec')")
      caught=(node --input-type=commonjs -e "try { require('$spec') } catch (e) { console.log(e.message) }")
    fi
    code=0
    out="$("${load[@]}" 2>&1)" || code=$?
    peer="${needs[$spec]:-}"
    if [ -z "$peer" ]; then
      [ "$code" = 0 ] || { echo "   $how '$spec' failed without optional peers:"; sed 's/^/     /' <<< "$out" | head -20; failures=$((failures + 1)); }
      continue
    fi
    version="$(node -p "require('$root/package.json').peerDependencies['$peer'].replace(/^\^0\.(\d+)\..*/, '0.\$1').replace(/^\^(\d+)\..*/, '\$1')")"
    line="$spec needs $peer, which is not installed: npm install $peer@$version"
    message="$("${caught[@]}" 2>&1)"
    if [ "$code" = 0 ] || [ "$message" != "$line" ] || ! grep -qxF "MissingPeerError: $line" <<< "$out" || grep -qE 'ERR_MODULE_NOT_FOUND|Cannot find (package|module)' <<< "$out"; then
      echo "   $how '$spec' without $peer: expected to fail with '$line'; threw '$message', printed:"
      sed 's/^/     /' <<< "$out" | head -20
      failures=$((failures + 1))
    else
      echo "   $how '$spec': $line"
    fi
  done
done
# A function that needs missing peers words it the same way: a usage store on PostgreSQL.
message="$(node --input-type=module -e "import { openUsageStore } from 'ergraph/compat'; await openUsageStore('postgres://u@127.0.0.1:2/db').then(() => console.log('opened'), (e) => console.log(e.message))" 2>&1)"
if [[ "$message" == "openUsageStore(postgres:…) needs pg and drizzle-orm, which are not installed: npm install pg@"*" drizzle-orm@0."* ]]; then
  echo "   openUsageStore('postgres://…'): $message"
else
  echo "   openUsageStore('postgres://…') without pg and drizzle-orm: $message"
  failures=$((failures + 1))
fi
echo "   ${#subs[@]} export paths imported and required, $failures failed"
[ "$failures" = 0 ]
