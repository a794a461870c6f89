/**
 * vitest globalSetup: the suites that run the binaries or link the built package as a user's
 * `node_modules/ergraph` need `dist/` to match the sources. A fresh clone has no dist and a
 * working checkout may hold an old one (the bins then run old code), so `npm test` builds first
 * whenever a source file is newer than the build; CI, which has just built, pays nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['src', 'cli', 'compat', 'codemods', 'bin', 'scripts', 'package.json', 'tsconfig.build.json'];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

export default function setup(): void {
  const built = join(REPO, 'dist', 'src', 'index.js');
  const sources = Math.max(...SOURCES.map((p) => join(REPO, p)).filter(existsSync).map(newest));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  console.log('dist/ is missing or older than the sources: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
}
