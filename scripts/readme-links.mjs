// A package's README on the registry (issue 44.5): the registry page shows README.md alone, and
// the docs/ its relative links point to are not in the package, so packing either package
// (`npm pack`, `npm publish`) rewrites those links to the repository's files (prepack) and puts the
// README back when the tarball is written (postpack). Run by npm in the package's folder:
//   node <repo>/scripts/readme-links.mjs rewrite | restore
// test/consumer/packed-readmes.mjs checks every link of each packed README.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = 'https://github.com/ergraph/ergraph';
/** Files of the repository's default branch: a moved page is caught by the consumer stage's check of the links. */
export const FILES = `${REPOSITORY}/blob/HEAD/`;

/** `[text](target)`: the targets of a Markdown text. */
export const links = (text) => [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);

const elsewhere = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#');

/** Relative links of a README in the repository's folder `dir` (`''`, `'codemods'`) made absolute. */
export function absoluteLinks(text, dir) {
  return text.replace(/\]\(([^)\s]+)\)/g, (all, target) => (elsewhere(target) ? all : `](${FILES}${posix.normalize(posix.join(dir, target))})`));
}

const README = 'README.md';
// The README as written, while the tarball is made: under node_modules, which no package ships.
const KEPT = 'node_modules/.cache/readme-links/README.md';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command] = process.argv.slice(2);
  if (command === 'rewrite') {
    if (existsSync(KEPT)) throw new Error(`${KEPT} is there: an earlier pack did not finish; put it back first (mv ${KEPT} ${README})`);
    const { repository } = JSON.parse(readFileSync('package.json', 'utf8'));
    const text = readFileSync(README, 'utf8');
    mkdirSync('node_modules/.cache/readme-links', { recursive: true });
    renameSync(README, KEPT);
    writeFileSync(README, absoluteLinks(text, repository?.directory ?? ''));
  } else if (command === 'restore') {
    if (existsSync(KEPT)) renameSync(KEPT, README);
  } else {
    throw new Error('usage: node scripts/readme-links.mjs rewrite | restore');
  }
}
