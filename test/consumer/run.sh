#!/usr/bin/env bash
# The consumer stage (issue 11.4): the packed packages as users get them. Run after `npm run build`
# (`.ci/run` does; or `npm run test:consumer`). Pack both (ergraph, ergraph-migrate); install
# ergraph alone into an empty project (a server's install: no migration toolchain, no install
# scripts) and with npm, pnpm and yarn; install both in one `npm install` into the consumer app
# and there (a) run an app with tsx, (b) compile it with tsc and run it with node, (c) run a
# vitest file on handler.schema, (d) run ergraph-migrate on old code and compile the output — and,
# in an old-version project without ergraph 6, `npx ergraph-migrate upgrade --to 6 src` with npx
# fetching the tarball — (e) type-check (and run) the TypeScript blocks of README.md and
# docs/*.md, (f) in a CommonJS project, load its TypeScript app with both CLIs and compile it with
# `module: commonjs`, (g) run attw over both tarballs. Beside those: every ergraph/ergraph-migrate
# line of the docs on a plain install (commands.sh), docs/install.md's setup per package manager
# as written (setup.sh), and TypeScript 7 (typescript7.sh). Prints its duration.
#
# On the Node first on PATH (.ci/run puts Node 22 and 24 there with .ci/node.sh), with the graphql
# major users get on it: 16 on Node 20, 17 on Node 22 and later (graphql 17 requires Node 22).
# `--quick`: only what differs by Node and graphql — a plain install (no engine warnings, the
# graphql npm picks), (a) tsx, (b) tsc + node, (c) vitest, (d) ergraph-migrate, the type-check of
# (e), (f) CommonJS; the rest runs once, in the full stage.
set -euo pipefail
started=$(date +%s)
quick=false
[ "${1:-}" = "--quick" ] && quick=true
node_major="$(node -p 'process.versions.node.split(".")[0]')"
graphql_major=16
[ "$node_major" -ge 22 ] && graphql_major=17
echo "== consumer: Node $(node -v), npm $(npm -v), graphql $graphql_major$($quick && echo ', quick')"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/ergraph-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
step() { echo "== consumer (Node $node_major): $* ($(( $(date +%s) - started )) s)"; }
fail() { echo "consumer stage FAILED: $*" >&2; exit 1; }
no_peer_warnings() { # $1 log file; npm/pnpm/yarn each word peer problems differently
  if grep -iE "ERESOLVE|unmet peer|peer dep|incorrect peer|missing peer|conflicting peer" "$1"; then fail "$2 printed peer-dependency warnings (above)"; fi
}
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

step "pack both packages"
[ -f "$root/dist/assets/graphiql/graphiql.min.js" ] || fail "dist/ is not built (npm run build)"
[ -f "$root/codemods/dist/codemods/cli.js" ] || fail "codemods/dist/ is not built (npm run build)"
if [ -n "${ERGRAPH_PACKED:-}" ]; then
  # .ci/run packs once, before this stage runs on Node 20, 22 and 24 beside
  # each other and beside npm test: a pack swaps the checkout's README for the registry's
  # (prepack/postpack), which no other pack and no test reading README.md may see mid-swap.
  cp "$ERGRAPH_PACKED"/ergraph-*.tgz "$work"/
else
  (cd "$root" && npm pack --silent --pack-destination "$work" >/dev/null)
  (cd "$root/codemods" && npm pack --silent --pack-destination "$work" >/dev/null)
fi
tgz="$(ls "$work"/ergraph-[0-9]*.tgz)"
mtgz="$(ls "$work"/ergraph-migrate-*.tgz)"
version="${tgz#"$work"/ergraph-}"; version="${version%.tgz}"
[ "ergraph-migrate-$version.tgz" = "$(basename "$mtgz")" ] || fail "the two packages' versions differ: $(basename "$tgz") $(basename "$mtgz")"

if ! $quick; then
step "each packed README as the registry shows it: every link works, LICENSE and repository/homepage/bugs there"
node "$here/packed-readmes.mjs" "$root" "$tgz" "$mtgz" || fail "a packed README has a dead link, or a package lacks its LICENSE or links (above)"
fi

step "npm install <ergraph tarball> into an empty project: a server's install"
mkdir "$work/empty" && cd "$work/empty"
echo '{ "name": "empty", "version": "1.0.0", "type": "module", "private": true }' > package.json
t0=$(date +%s%N)
npm install "$tgz" > install.log 2>&1 || { cat install.log; fail "npm install"; }
t1=$(date +%s%N)
no_peer_warnings install.log "npm install"
# No dependency (nor the peers npm adds) may refuse this Node.
if grep -iE "EBADENGINE|Unsupported engine" install.log; then fail "npm install on Node $node_major printed engine warnings (above)"; fi
picked="$(node -p "JSON.parse(require('fs').readFileSync('node_modules/graphql/package.json', 'utf8')).version")"
[ "${picked%%.*}" = "$graphql_major" ] || fail "npm installed graphql $picked on Node $node_major, expected $graphql_major"
# No migration toolchain, and nothing with an install script (pnpm refuses those by default).
toolchain="$(npm ls --all --parseable 2>/dev/null | grep -E '/node_modules/(ts-morph|@ts-morph/common|typescript|jscodeshift|@babel/core|diff|tsx|esbuild)$' || true)"
[ -z "$toolchain" ] || fail "a plain install of ergraph carries the migration toolchain: $toolchain"
scripts="$({ npm ls --all --parseable 2>/dev/null || true; } | node -e "
const { readFileSync, existsSync } = require('fs');
for (const dir of readFileSync(0, 'utf8').split('\\n').filter(Boolean)) {
  const file = dir + '/package.json';
  if (!existsSync(file)) continue;
  const { name, scripts = {} } = JSON.parse(readFileSync(file, 'utf8'));
  if (scripts.preinstall || scripts.install || scripts.postinstall) console.log(name);
}")"
[ -z "$scripts" ] || fail "a plain install of ergraph has packages with install scripts: $scripts"
echo "   npm install: $(( (t1 - t0) / 1000000 )) ms, node_modules $(du -sh node_modules | cut -f1), $(ls node_modules | wc -l) top-level entries"
step "every export path, imported and required, without the optional peers (alone: bash test/consumer/import-paths.sh <project> <root>)"
bash "$here/import-paths.sh" "$work/empty" "$root" || fail "an export path failed without optional peers, or without its peer printed no one-line message (above)"

if ! $quick; then
# The README's own install line of a package manager, with the tarball for ergraph.
readme_line() { # $1: "pnpm add" or "yarn add"
  local line
  line="$(grep -m1 "^$1 ergraph " "$root/README.md" | sed 's/#.*//')"
  [ -n "$line" ] || fail "the README has no '$1 ergraph' line"
  echo "${line#"$1" ergraph }"
}

step "pnpm, current major (the registry's latest): the README's pnpm line, and ergraph-migrate through pnpm dlx"
mkdir "$work/pnpm" && cd "$work/pnpm"
echo '{ "name": "p", "version": "1.0.0", "type": "module", "private": true }' > package.json
# shellcheck disable=SC2046 # the README's arguments, word-split as a shell would
npx -y pnpm@latest add "$tgz" $(readme_line "pnpm add") > install.log 2>&1 || { cat install.log; fail "pnpm add (the README's line)"; }
no_peer_warnings install.log "pnpm add"
grep -oE 'using pnpm v[0-9.]+' install.log | sed 's/^/   /'
node --input-type=module -e "await import('ergraph')" || fail "import ergraph under pnpm"
[ "$(npx -y pnpm@latest --package="$mtgz" dlx ergraph-migrate --version 2> dlx.log | tail -1)" = "$version" ] || { cat dlx.log; fail "pnpm dlx ergraph-migrate --version"; }

step "yarn 1: the README's own yarn add line, with the tarball for ergraph (yarn 1 installs no peers: the README names them)"
mkdir "$work/yarn" && cd "$work/yarn"
echo '{ "name": "y", "version": "1.0.0", "type": "module", "private": true, "license": "MIT" }' > package.json
# shellcheck disable=SC2046 # the README's arguments, word-split as a shell would
npx -y yarn@1 add "file:$tgz" $(readme_line "yarn add") > install.log 2>&1 || { cat install.log; fail "yarn add (the README's line)"; }
grep -E 'ergraph@.*unmet peer' install.log && fail "yarn 1 reports unmet peers of ergraph"
node --input-type=module -e "await import('ergraph')" || fail "import ergraph under yarn"

step "yarn, current major (the registry's latest, Plug'n'Play by default): the README's yarn line, ergraph imported through yarn node"
mkdir "$work/yarn-current" && cd "$work/yarn-current"
echo '{ "name": "y", "version": "1.0.0", "type": "module", "private": true, "license": "MIT" }' > package.json
yarn_current() { npx -y -p @yarnpkg/cli-dist@latest yarn "$@"; }
# shellcheck disable=SC2046 # the README's arguments, word-split as a shell would
yarn_current add "ergraph@file:$tgz" $(readme_line "yarn add") > install.log 2>&1 || { cat install.log; fail "yarn add (the README's line, current yarn)"; }
# Yarn 2+ words peer problems as codes: YN0002 (a peer not provided), YN0060 (wrong version), YN0086.
if grep -E "YN0002|YN0060|YN0086" install.log; then fail "current yarn reports peer problems (above)"; fi
grep -oE 'Yarn [0-9.]+' install.log | head -1 | sed 's/^/   /'
yarn_current node --input-type=module -e "await import('ergraph')" || fail "import ergraph under current yarn"

step "docs/install.md's setup per package manager (npm, pnpm, yarn 1), as written: install lines, tsc --init, tsx, vitest"
bash "$here/setup.sh" "$tgz" "$work" || fail "docs/install.md's setup does not work as written (above)"
fi

step "consumer project: npm install"
cp -r "$here/app" "$work/app" && cd "$work/app"
cat > package.json <<JSON
{ "name": "consumer-app", "version": "1.0.0", "type": "module", "private": true,
  "devDependencies": { "tsx": "^4.20.0", "typescript": "~5.9.0", "vitest": "^4.0.0", "vite": "^7.0.0", "@types/node": "^20.0.0" } }
JSON
# Both packages in one install: ergraph for the app, ergraph-migrate as a dev tool beside it.
npm install "$tgz" "$mtgz" "graphql@$graphql_major" zod hono dataloader @hono/node-server drizzle-orm "@electric-sql/pglite@^0.5.0" > install.log 2>&1 || { cat install.log; fail "npm install (app)"; }
no_peer_warnings install.log "npm install (app)"

step "ergraph --version, ergraph-migrate --version / -v: the packages' version, exit 0"
for bin in ergraph ergraph-migrate; do
  for flag in --version -v; do
    out="$(node_modules/.bin/$bin $flag)" || fail "$bin $flag exited $?"
    [ "$out" = "$version" ] || fail "$bin $flag printed '$out', expected $version"
  done
done

step "ergraph-migrate --help, list, --version load no yargs layout (cliui, wrap-ansi, string-width) and no TypeScript; a usage error loads yargs"
# Issue 31.3, as users get it: this install has no `overrides`, so yargs' layout would bring the
# string-width 7 whose per-character emoji regex made --help slow. test/support/loaded-modules.mjs
# lists what the process loaded; the usage error shows the list does see yargs when it loads.
for args in --help list --version no-such-step; do
  LOADED_MODULES_OUT="$work/loaded.json" node --import "$root/test/support/loaded-modules.mjs" node_modules/.bin/ergraph-migrate $args > /dev/null 2>&1 || [ "$args" = no-such-step ] || fail "ergraph-migrate $args"
  node -e "
const { cjs, esm } = JSON.parse(require('fs').readFileSync('$work/loaded.json', 'utf8'));
const hit = [...cjs, ...esm].filter((f) => /node_modules[\\/](yargs|cliui|wrap-ansi|string-width|emoji-regex|ts-morph|@ts-morph|typescript)[\\/]/.test(f));
if ('$args' === 'no-such-step' ? !hit.some((f) => /[\\/]yargs[\\/]/.test(f)) : hit.length) { console.error(hit.join('\\n') || 'yargs not seen'); process.exit(1); }
" || fail "ergraph-migrate $args: loaded modules (above) it should not, or the check saw no yargs"
done

if ! $quick; then
step "a TypeScript --app on a plain install says tsx (an optional peer) is missing, in one line; then tsx as the docs' dev tools line installs it"
cd "$work/empty" && mkdir -p src && cp "$here/app/src/graph.ts" src/graph.ts
echo "import { handler } from './graph.js'; export const apps = [{ name: 'demo', handler, description: 'users and tasks' }];" > src/apps.ts
line="$(node_modules/.bin/ergraph schema print --app src/apps.ts 2>&1)" && fail "schema print --app <TypeScript> ran without tsx"
[ "$line" = "ergraph: --app src/apps.ts (TypeScript) needs tsx, which is not installed: npm install tsx@4, or point --app at compiled JavaScript" ] || fail "without tsx: $line"
npm install -D tsx@4 > tsx.log 2>&1 || { cat tsx.log; fail "npm install -D tsx@4"; }
cd "$work/app"

step "every ergraph and ergraph-migrate command of README.md and docs/*.md: ergraph (and tsx) in the project, ergraph-migrate from elsewhere as npx runs it (no stack trace)"
bash "$here/commands.sh" "$work/empty" "$root" "$work/app/node_modules/.bin/ergraph-migrate" || fail "a documented command printed a stack trace or a raw module error (above)"
fi

step "ergraph/orm loads the drizzle-orm the app imports (its ES module build, one instance), under plain node"
node --input-type=module -e "
import { pathToFileURL } from 'node:url';
import { Column } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
await import('ergraph/orm');
const { core, pgCore } = await import(pathToFileURL('node_modules/ergraph/dist/src/orm/drizzle.js').href);
if (pgCore().PgTable !== PgTable || core().Column !== Column) process.exit(1);
" || fail "ergraph/orm uses another copy of drizzle-orm than the app's import"

step "(a) tsx"
npx tsx src/main.ts > out-tsx.json || fail "tsx src/main.ts"
node -e "const a=require('./out-tsx.json'),b=require('./expected.json');if(JSON.stringify(a)!==JSON.stringify(b)){console.error(JSON.stringify(a,null,2));process.exit(1)}" || fail "(a) tsx output differs from expected.json"

step "(b) tsc + node"
npx tsc -p tsconfig.json || fail "tsc"
# skipLibCheck is on above, as \`tsc --init\` sets it (drizzle-orm's own declarations do not check
# without mysql2 & co.); ergraph's declarations must check cleanly all the same.
npx tsc -p tsconfig.json --noEmit --skipLibCheck false 2>&1 | grep 'node_modules/ergraph/' && fail "ergraph's declarations do not type-check"
node dist/main.js > out-node.json || fail "node dist/main.js"
node -e "const a=require('./out-node.json'),b=require('./expected.json');if(JSON.stringify(a)!==JSON.stringify(b)){console.error(JSON.stringify(a,null,2));process.exit(1)}" || fail "(b) node output differs from expected.json"

step "(c) vitest: handler.schema in graphql's own functions"
npx vitest run --config vitest.config.ts > vitest.log 2>&1 || { cat vitest.log; fail "vitest with the documented alias"; }
echo "import { defineConfig } from 'vitest/config'; export default defineConfig({});" > vitest.bare.config.ts
if npx vitest run --config vitest.bare.config.ts > bare.log 2>&1; then
  echo "   note: without the alias vitest passes too now; the README's advice may be dropped"
else
  grep -q "from another module or realm" bare.log || { cat bare.log; fail "without the alias vitest failed for another reason"; }
  echo "   without the alias: 'from another module or realm' (as the README says); with it: passes"
fi

if ! $quick; then
step "(d) an old-version project (no ergraph 6 installed): npx ergraph-migrate upgrade --to 6 src, as the README says (npx fetching the tarball)"
# The project a team migrates: its old code, its old peers, no ergraph 6. npx installs
# ergraph-migrate in a folder of its own (the size below is that install: what a migration brings).
mkdir -p "$work/old/src" && cd "$work/old"
echo '{ "name": "old-app", "version": "1.0.0", "type": "module", "private": true }' > package.json
printf 'node_modules\n' > .gitignore
npm install zod@3 graphql@16 > install.log 2>&1 || { cat install.log; fail "npm install zod@3 graphql@16 (the old project)"; }
cp "$here/old-api/models.ts.txt" src/models.ts
git init -q && git add -A && git -c user.name=consumer -c user.email=consumer@example.invalid commit -qm "v3 app"
t0=$(date +%s%N)
bin="$(npx -y --package="$mtgz" -c 'command -v ergraph-migrate' 2> npx.log)" || { cat npx.log; fail "npx --package <ergraph-migrate tarball>"; }
t1=$(date +%s%N)
no_peer_warnings npx.log "npx ergraph-migrate"
npx_modules="$(dirname "$(dirname "$bin")")"
trap 'rm -rf "$work" "$(dirname "$npx_modules")"' EXIT
echo "   npx install of ergraph-migrate: $(( (t1 - t0) / 1000000 )) ms, node_modules $(du -sh "$npx_modules" | cut -f1), $(ls "$npx_modules" | wc -l) top-level entries"
npx -y --package="$mtgz" ergraph-migrate upgrade --to 6 src --report migration.md > migrate.log 2>&1 || { cat migrate.log; fail "npx ergraph-migrate upgrade --to 6 src in a project without ergraph 6"; }
grep -q "detected version 3" migrate.log || { cat migrate.log; fail "upgrade did not say it detected v3"; }
grep -q "__relationships__" src/models.ts || { cat src/models.ts; fail "migrate left __ergraph_relationships__"; }
[ ! -e node_modules/ergraph ] || fail "the old project got an ergraph installed"
cd "$work/app"
fi

step "(d) ergraph-migrate upgrade --to 6 on v3 code (start version detected, the migrated graph loaded), then tsc on the result"
mkdir -p old/src && cp "$here/old-api/models.ts.txt" old/src/models.ts && cd old
# As a user's project is: under git, committed, so the CLI's review-and-revert guard is satisfied.
git init -q && git add -A && git -c user.name=consumer -c user.email=consumer@example.invalid commit -qm "v3 app"
npx ergraph-migrate upgrade --to 6 src --report ../migration.md > ../migrate.log 2>&1 || { cat ../migrate.log; fail "ergraph-migrate"; }
grep -q "detected version 3" ../migrate.log || { cat ../migrate.log; fail "upgrade did not say it detected v3"; }
# The migrated graph (in a folder without a package.json of its own) loads for the v6 schema search.
grep -q "passed over" ../migrate.log && { cat ../migrate.log; fail "upgrade could not load the migrated module"; }
grep -q "__relationships__" src/models.ts || { cat src/models.ts; fail "migrate left __ergraph_relationships__"; }
cat > tsconfig.json <<JSON
{ "extends": "../tsconfig.json", "compilerOptions": { "noEmit": true, "rootDir": "." }, "include": ["src"] }
JSON
npx tsc -p tsconfig.json || { cat src/models.ts; fail "the migrated code does not compile"; }
cd ..

step "(d) jscodeshift: ergraph-migrate's README line for v3-to-v4, on the same v3 code, with the jscodeshift it installs"
mkdir -p jscs && cp "$here/old-api/models.ts.txt" jscs/models.ts
jscs_line="$(grep -m1 '^npx jscodeshift -t node_modules/ergraph-migrate/transforms/v3-to-v4.js ' "$root/codemods/README.md")"
[ -n "$jscs_line" ] || fail "codemods/README.md has no jscodeshift line for v3-to-v4"
# shellcheck disable=SC2086 # the README's words, with its src/ as this folder
${jscs_line% src/} jscs/ > jscs.log 2>&1 || { cat jscs.log; fail "$jscs_line"; }
# jscodeshift colours its summary whatever the output is (seen in CI: "\e[31m0 errors"), so the counts are read without the colour codes.
sed 's/\x1b\[[0-9;]*m//g' jscs.log > jscs.txt
grep -qE '^0 errors' jscs.txt && grep -qE '^1 ok' jscs.txt || { cat jscs.txt; fail "jscodeshift did not migrate the file (above)"; }
grep -q "__relationships__" jscs/models.ts || { cat jscs/models.ts; fail "the jscodeshift transform left __ergraph_relationships__"; }

step "(e) TypeScript blocks of README.md and docs/*.md (alone: bash test/consumer/readme-blocks-local.sh)"
node "$here/readme-blocks.mjs" "$root/README.md" "$here/readme-preludes" readme
cat > readme/tsconfig.json <<JSON
{ "extends": "../tsconfig.json", "compilerOptions": { "noEmit": true, "rootDir": ".", "noUnusedLocals": false, "skipLibCheck": true }, "include": ["*.ts"] }
JSON
npx tsc -p readme/tsconfig.json || fail "README/docs blocks do not type-check against the installed package (files under readme/ above)"
$quick || for file in $(node -e "for (const p of require('./readme/plan.json')) if (p.run) console.log(p.file)"); do
  timeout 120 npx tsx "readme/$file" > /dev/null || fail "README/docs block readme/$file does not run"
done

if ! $quick; then
step "TypeScript 7: the app, the docs' blocks, ergraph-migrate in a project on typescript@7"
bash "$here/typescript7.sh" "$tgz" "$work/app" "$mtgz" || fail "TypeScript 7 (above)"
fi

step "(f) a CommonJS project (package.json as npm init writes it): the CLIs load its TypeScript app"
mkdir -p "$work/cjs/src" && cd "$work/cjs"
echo '{ "name": "cjs-app", "version": "1.0.0", "type": "commonjs", "private": true }' > package.json
ln -s ../app/node_modules node_modules
cp "$here/app/src/graph.ts" src/graph.ts
# Imports without extensions, as CommonJS TypeScript writes them.
# Its own graphql import must be the graphql ergraph built the schema with, under the CLIs too.
cat > src/apps.ts <<'TS'
import { GraphQLSchema } from 'graphql';
import { handler } from './graph';
if (!(handler.schema instanceof GraphQLSchema)) throw new Error("two graphql instances: the project's and ergraph's");
export const apps = [{ name: 'app', handler, description: 'users and tasks' }];
TS
printf '{ userGetAll(limit: 1) { name } }\n' > src/users.graphql
npx ergraph schema print --app src/apps.ts > schema.graphql 2> schema.log || { cat schema.log; fail "ergraph schema print --app in a CommonJS project"; }
grep -q "User: UserQuery!" schema.graphql || { cat schema.graphql; fail "schema print --app printed no v6 schema"; }
npx ergraph-migrate v5-to-v6 src --dry-run --load-app > migrate.log 2>&1 || { cat migrate.log; fail "ergraph-migrate v5-to-v6 in a CommonJS project"; }
grep -q "v6 schema: ER graph of src/graph.ts" migrate.log || { cat migrate.log; fail "v5-to-v6 did not load the CommonJS project's ER graph"; }
grep -q "User { userGetAll: getAll(limit: 1)" migrate.log || { cat migrate.log; fail "v5-to-v6 did not rewrite the document"; }
# docs/install.md's fix for `tsc --init` in a CommonJS project (its verbatimModuleSyntax refuses
# every import, TS1295), run as written on a main.ts of the app.
printf "import { apps } from './apps';\nconsole.log(apps[0]!.handler.schema.getType('UserQuery') ? 'cjs ok' : 'no UserQuery');\n" > src/main.ts
while IFS= read -r line; do
  [ -n "$line" ] || continue
  bash -c "$line" > cjs-init.log 2>&1 || { cat cjs-init.log; fail "'$line' (docs/install.md tsc-init-cjs) in a CommonJS project"; }
done <<< "$(awk '/<!-- consumer: tsc-init-cjs -->/{want=1; next} want && /^```/ {if (inb) exit; inb=1; next} inb {print}' "$root/docs/install.md")"
[ "$(tail -1 cjs-init.log)" = "cjs ok" ] || { cat cjs-init.log; fail "the CommonJS project compiled by docs/install.md's tsc-init-cjs block does not run"; }
rm -rf tsconfig.json dist src/main.ts
# tsconfig as older CommonJS projects have it (`tsc --init` of TypeScript 5.8 and before):
# `module: commonjs` resolves as node10, which reads
# no `exports` map (the package's `types` and `typesVersions` serve it); node then require()s the
# ES module (Node 20.19+).
cat > tsconfig.json <<JSON
{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "esModuleInterop": true, "strict": true, "skipLibCheck": true, "outDir": "dist", "rootDir": "src", "types": ["node"] }, "include": ["src"] }
JSON
npx tsc -p tsconfig.json || fail "tsc with module commonjs (node10 resolution) in a CommonJS project"
node -e "const { apps } = require('./dist/apps.js'); if (!apps[0].handler.schema.getType('UserQuery')) process.exit(1)" || fail "the compiled CommonJS app does not run"
# The project's own require('graphql') and the one ergraph imports are one instance (graphql 17
# ships ES modules; Node's require takes them by the module-sync condition), so graphql's own
# functions accept ergraph's schema.
node -e "const { apps } = require('./dist/apps.js'); if (!require('graphql').printSchema(apps[0].handler.schema).includes('User: UserQuery!')) process.exit(1)" || fail "the CommonJS project's require('graphql') is not the graphql ergraph uses"
# drizzle-orm ships a CommonJS build beside its ES modules: a CommonJS project's require() gets
# that one, a second copy beside the ES module build ergraph loads; Drizzle recognizes its own
# classes across copies (by entity kind), so ergraph/orm takes the project's tables.
node -e "
const { pgTable, integer, text } = require('drizzle-orm/pg-core');
const { tableModel, tableOf } = require('ergraph/orm');
const users = pgTable('users', { id: integer('id').primaryKey(), name: text('name').notNull() });
if (tableOf(tableModel(users)) !== users) process.exit(1);
" || fail "ergraph/orm does not take a CommonJS project's Drizzle tables"

$quick && { echo "consumer stage (quick) on Node $node_major passed in $(( $(date +%s) - started )) s"; exit 0; }

step "(g) are the types wrong? (attw over the tarball: node10, node16 from ESM, bundler)"
# ergraph is ESM only, so 'cjs-resolves-to-esm' (a require() of it) is by design: Node 20.19+
# loads it with require, and TypeScript 5.8+ allows that under module nodenext.
for pkg in "$tgz" "$mtgz"; do
  npx -y @arethetypeswrong/cli@0.18 "$pkg" --ignore-rules cjs-resolves-to-esm --format ascii --no-emoji > attw.log 2>&1 || { cat attw.log; fail "attw found problems in $(basename "$pkg")'s types"; }
done

echo "consumer stage on Node $node_major passed in $(( $(date +%s) - started )) s"
