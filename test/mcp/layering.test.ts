/**
 * The house goes one way up (issue 16.6): the v6 engine — everything under src/ but the CLI —
 * never loads the v5 compat layer. Compat extends the MCP server from above (it registers its
 * v5 side when loaded), so the import graph of ergraph/mcp has no file under compat/.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Every file reachable through relative imports (static and dynamic) from `entry`. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [resolve(root, entry)];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (match[1] ?? match[2])!;
      stack.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  }
  return new Set([...seen].map((f) => relative(root, f)));
}

describe('layering', () => {
  it('ergraph/mcp reaches no file of compat/', () => {
    const files = reachable('src/mcp/index.ts');
    expect(files.has('src/mcp/server.ts')).toBe(true); // the walk does follow imports
    expect([...files].filter((f) => f.startsWith('compat/'))).toEqual([]);
  });

  it('nor do ergraph and ergraph/http', () => {
    for (const entry of ['src/index.ts', 'src/http/index.ts']) {
      expect([...reachable(entry)].filter((f) => f.startsWith('compat/')), entry).toEqual([]);
    }
  });
});
