/** The installed package's version, for `--version`: read from its package.json, wherever the code runs from (sources or dist/). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'ergraph' && pkg.version) return pkg.version;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('ergraph: package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}
