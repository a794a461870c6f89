/**
 * What a project has installed, found as Node looks for a package: `node_modules/<name>` in the
 * folder and each one above it (under pnpm, a package's folder in the store sits beside its
 * peers). Read from the folders rather than resolved, because packages with an `exports` map
 * need not expose an entry `require.resolve` accepts. Both packages use it: ergraph for its
 * optional peers, ergraph-migrate for the ergraph a project it verifies has.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';

/** The version of `name` that code in `fromDir` would load, or undefined when it is not installed. */
export function installedVersion(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      try {
        return String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version ?? '');
      } catch {
        return '';
      }
    }
    if (dir === parse(dir).root) return undefined;
  }
}
