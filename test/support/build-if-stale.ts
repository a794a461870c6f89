/**
 * vitest globalSetup: the suites that run the binaries or link the built package as a user's
 * `node_modules/ergraph` need both packages' builds (`dist/`, `codemods/dist/`) to match the
 * sources. A fresh clone has none and a working checkout may hold an old one (the bins then run
 * old code), so `npm test` builds first whenever a source file is newer than either build; CI,
 * which has just built, pays nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['src', 'compat', 'cli', 'codemods', 'bin', 'scripts', 'package.json', 'tsconfig.build.json'];
// A file of each package's build (ergraph's, ergraph-migrate's).
const BUILT = ['dist/src/index.js', 'codemods/dist/codemods/cli.js'];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  // codemods/ holds its package's build and links: not sources.
  for (const name of readdirSync(path)) if (name !== 'dist' && name !== 'node_modules') latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

export default function setup(): void {
  const sources = Math.max(...SOURCES.map((p) => join(REPO, p)).filter(existsSync).map(newest));
  const built = BUILT.map((p) => join(REPO, p));
  if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= sources)) return;
  console.log('dist/ is missing or older than the sources: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
}
