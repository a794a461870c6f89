/**
 * The version of the package a module belongs to (`--version`, what the MCP server announces):
 * read from the nearest package.json of ergraph or ergraph-migrate above `from` (the caller's
 * `import.meta.url`), so the same code answers from the sources, from dist/, and compiled into
 * either package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGES = new Set(['ergraph', 'ergraph-migrate']);

export function packageVersion(from: string): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name && PACKAGES.has(pkg.name) && pkg.version) return pkg.version;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`package.json of ergraph or ergraph-migrate not found above ${fileURLToPath(from)}`);
    dir = up;
  }
}
