// Part of `npm run build` (after tsc): copy the pages' browser assets from the devDependencies
// into dist/assets/<page>/<name>, so the package ships them and depends on none of their packages.
// The list is the one the server reads (src/http/assets.ts), imported from the fresh build.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

const { PAGE_ASSETS, assetSource, shippedAssetPath } = await import('../dist/src/http/assets.js');
rmSync(new URL('../dist/assets/', import.meta.url), { recursive: true, force: true });
let count = 0;
for (const [page, assets] of Object.entries(PAGE_ASSETS)) {
  for (const [name, asset] of Object.entries(assets)) {
    const to = shippedAssetPath(page, name);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(assetSource(asset), to);
    count++;
  }
}
console.log(`copied ${count} page assets into dist/assets`);
