#!/usr/bin/env bash
# TypeScript 7 (issue 28.3): npm's `typescript@7` is the native compiler; it ships `tsc` (no
# `tsgo`) and no compiler API. In a project whose own typescript is 7: type-check the consumer
# app and the docs' TypeScript blocks that run.sh type-checked with 5.9, compile and run the app,
# and run ergraph-migrate on v3 code then compile its output (ergraph-migrate must not load the
# project's TypeScript: it parses with ts-morph's bundled compiler).
#   bash test/consumer/typescript7.sh <ergraph tarball> <the consumer app, after run.sh's step (e)> <ergraph-migrate tarball>
set -euo pipefail
tgz="$1"
app="$2"
mtgz="$3"
here="$(cd "$(dirname "$0")" && pwd)"
started=$(date +%s)
project="$(dirname "$app")/ts7"
mkdir -p "$project/src" && cd "$project"
echo '{ "name": "ts7", "version": "1.0.0", "type": "module", "private": true }' > package.json
npm install "$tgz" "$mtgz" -D typescript@7 @types/node@20 > install.log 2>&1 || { cat install.log; echo "npm install typescript@7 failed" >&2; exit 1; }
tsc7="$project/node_modules/.bin/tsc"
version="$("$tsc7" --version)"
[[ "$version" == "Version 7."* ]] || { echo "expected TypeScript 7, got: $version" >&2; exit 1; }
echo "   $version"

cd "$app"
"$tsc7" -p tsconfig.json --outDir dist7 || { echo "TypeScript 7 does not compile the consumer app" >&2; exit 1; }
node dist7/main.js > out-ts7.json || { echo "the app compiled by TypeScript 7 does not run" >&2; exit 1; }
node -e "const a=require('./out-ts7.json'),b=require('./expected.json');if(JSON.stringify(a)!==JSON.stringify(b))process.exit(1)" || { echo "the app compiled by TypeScript 7 prints something else" >&2; exit 1; }
"$tsc7" -p readme/tsconfig.json || { echo "README/docs blocks do not type-check with TypeScript 7 (files under readme/ above)" >&2; exit 1; }

cd "$project"
cp "$here/old-api/models.ts.txt" src/models.ts
printf 'node_modules\n*.log\n' > .gitignore
git init -q && git add -A && git -c user.name=consumer -c user.email=consumer@example.invalid commit -qm "v3 app"
npx ergraph-migrate upgrade --to 6 src --report ../ts7-migration.md > migrate.log 2>&1 || { cat migrate.log; echo "ergraph-migrate failed in a project on TypeScript 7" >&2; exit 1; }
grep -q "detected version 3" migrate.log || { cat migrate.log; echo "ergraph-migrate did not detect v3 under TypeScript 7" >&2; exit 1; }
grep -q "passed over" migrate.log && { cat migrate.log; echo "ergraph-migrate could not load the migrated module under TypeScript 7" >&2; exit 1; }
cat > tsconfig.json <<JSON
{ "compilerOptions": { "target": "es2022", "module": "nodenext", "strict": true, "skipLibCheck": true, "noEmit": true, "types": ["node"] }, "include": ["src"] }
JSON
"$tsc7" -p tsconfig.json || { cat src/models.ts; echo "TypeScript 7 does not compile ergraph-migrate's output" >&2; exit 1; }
echo "   TypeScript 7: app compiled and run, docs blocks checked, ergraph-migrate run and its output compiled ($(( $(date +%s) - started )) s)"
