/**
 * The `paths` aliases of a project's tsconfig.json (or jsconfig.json): `@/lib/eg` → `src/lib/eg`.
 * A project's own barrel is often imported through one, and the module graph (`project.ts`)
 * must follow it to know that `import { LoaderDepend as LD } from '@/lib/eg'` is ergraph's.
 * TypeScript reads the file (comments, `extends`); no directory is listed (the run has its files).
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ts } from './typescript.js';

export interface PathMapping {
  base: string;
  paths: [pattern: string, targets: string[]][];
}

const byDir = new Map<string, PathMapping | null>();
const byConfig = new Map<string, PathMapping | null>();

/** Reads a config's own options after `extends`, without enumerating its files. */
function readConfig(path: string): PathMapping | null {
  const known = byConfig.get(path);
  if (known !== undefined) return known;
  let mapping: PathMapping | null = null;
  try {
    const { config, error } = ts.readConfigFile(path, ts.sys.readFile);
    if (!error) {
      const host = { ...ts.sys, readDirectory: (): string[] => [] };
      const { options } = ts.parseJsonConfigFileContent(config, host, dirname(path), undefined, path);
      const paths = options.paths;
      if (paths) {
        const base = (options as { pathsBasePath?: string }).pathsBasePath ?? options.baseUrl ?? dirname(path);
        mapping = { base: resolve(base), paths: Object.entries(paths) };
      }
    }
  } catch {
    // A config TypeScript cannot read has no aliases to follow.
  }
  byConfig.set(path, mapping);
  return mapping;
}

/** The aliases in force for files of `dir`: those of the nearest tsconfig.json or jsconfig.json. */
export function pathMappingFor(file: string): PathMapping | null {
  if (!isAbsolute(file)) return null;
  const dir = dirname(file);
  const walk = (d: string): PathMapping | null => {
    const known = byDir.get(d);
    if (known !== undefined) return known;
    let found: PathMapping | null;
    const config = ['tsconfig.json', 'jsconfig.json'].map((n) => join(d, n)).find((p) => existsSync(p));
    if (config) found = readConfig(config);
    else {
      const parent = dirname(d);
      found = parent === d ? null : walk(parent);
    }
    byDir.set(d, found);
    return found;
  };
  return walk(dir);
}

/** The paths a specifier may stand for under the aliases (without extension lookup), best match first. */
export function aliasTargets(mapping: PathMapping, spec: string): string[] {
  let best: { prefixLength: number; targets: string[] } | undefined;
  for (const [pattern, targets] of mapping.paths) {
    const star = pattern.indexOf('*');
    if (star === -1) {
      if (pattern === spec) return targets.map((t) => resolve(mapping.base, t));
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (!spec.startsWith(prefix) || !spec.endsWith(suffix) || spec.length < prefix.length + suffix.length) continue;
    // TypeScript takes the pattern with the longest prefix.
    if (best && best.prefixLength >= prefix.length) continue;
    const matched = spec.slice(prefix.length, spec.length - suffix.length);
    best = { prefixLength: prefix.length, targets: targets.map((t) => resolve(mapping.base, t.replace('*', matched))) };
  }
  return best?.targets ?? [];
}
