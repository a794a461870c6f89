#!/usr/bin/env bash
# Step (e) of the consumer stage alone, for editing README.md and docs/*.md: the TypeScript blocks
# type-checked (and the `run` ones run) against this checkout's built package, which the blocks
# import by name through package self-reference, with the checkout's node_modules for everything
# else. The tsconfig is the consumer app's (test/consumer/app/tsconfig.json). Seconds instead of
# the whole stage's install of the packed tarball, which stays the check CI runs.
#   bash test/consumer/readme-blocks-local.sh            (after npm run build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ -f "$root/dist/src/index.d.ts" ] || { echo "dist/ is not built (npm run build)" >&2; exit 1; }
# Inside the package (self-reference needs the package's own scope) and gitignored.
out="$root/test-output/readme-blocks"
rm -rf "$out"
node "$here/readme-blocks.mjs" "$root/README.md" "$here/readme-preludes" "$out"
node -e "
const app = require('$here/app/tsconfig.json').compilerOptions;
delete app.outDir; delete app.rootDir;
const options = { ...app, noEmit: true, noUnusedLocals: false, skipLibCheck: true };
require('fs').writeFileSync('$out/tsconfig.json', JSON.stringify({ compilerOptions: options, include: ['*.ts'] }, null, 2));
"
cd "$root"
npx tsc -p "$out/tsconfig.json" || { echo "blocks do not type-check (files under ${out#"$root"/}/ above)" >&2; exit 1; }
for file in $(node -e "for (const p of require('$out/plan.json')) if (p.run) console.log(p.file)"); do
  timeout 120 npx tsx "$out/$file" > /dev/null || { echo "block ${out#"$root"/}/$file does not run" >&2; exit 1; }
done
echo "blocks type-check and run"
