/** The files a module reaches through relative imports, for the layering checks (issue 16.6). */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Every file reachable through relative imports (static and dynamic) from `entry`. */
export function reachable(entry: string): Set<string> {
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
