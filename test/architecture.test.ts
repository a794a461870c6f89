/**
 * The house, one way up (issue 16.6, 29, 44.1; docs/architecture.md): src/er → src/resolver →
 * src/graphql / src/orm / src/picture → the surfaces → compat/ → the two command lines side by
 * side, cli/ (`ergraph`) and codemods/ (`ergraph-migrate`), with src/cli-kit (what both share)
 * below them. A part may import only
 * parts at or below its rank, no file imports itself through others (type-only imports included:
 * they erase at build time, so cannot form a loading cycle, but two files that need each other's
 * types are still one job in two rooms), and no source file is past 400 lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const RANK: Record<string, number> = {
  'src/telemetry': 0,
  'src/er': 0,
  // Loading optional peers with one message for all (src/orm and the commands use it).
  'src/peers': 0,
  'src/resolver': 1,
  'src/graphql': 2,
  'src/orm': 2,
  'src/schema': 2,
  'src/picture': 2,
  'src/http': 3,
  'src/mcp': 3,
  'src/federation': 3,
  'src/usecase': 4,
  'src/index.ts': 4,
  compat: 5,
  // What both command lines share (usage errors, exit codes, loading a user's module): below both of them.
  'src/cli-kit': 6,
  // The two command lines, on one floor above compat: neither imports the other (they ship apart).
  codemods: 7,
  cli: 7,
};
const partOf = (file: string) => file.match(/^(src\/[^/]+|compat|codemods|cli)/)?.[1] ?? file;

/** Where the packages' source lives (the tests, benches and examples are not part of it). */
const SOURCE_DIRS = ['src', 'compat', 'codemods', 'cli', 'bin'];
/** What a source folder also holds that is no source: ergraph-migrate's build and links. */
const NOT_SOURCE = new Set(['dist', 'node_modules']);
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/;
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** Lines as `wc -l` counts them, plus a last line without a newline. */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Files that import parts above their own rank. */
function upwardImports(imports: Record<string, string[]>): string[] {
  const upward: string[] = [];
  for (const [file, deps] of Object.entries(imports)) {
    for (const dep of deps) {
      const [from, to] = [partOf(file), partOf(dep)];
      expect(RANK[from], `${file} is in no known part`).toBeDefined();
      expect(RANK[to], `${dep} is in no known part`).toBeDefined();
      if (RANK[to]! > RANK[from]!) upward.push(`${file} -> ${dep}`);
    }
  }
  return upward;
}

/**
 * Two top-level commands share helpers through src/cli-kit; neither reaches into the other's
 * folder: `ergraph` and `ergraph-migrate` are two packages, and a server's `ergraph` carries no
 * migration toolchain.
 */
function crossingCommandLines(imports: Record<string, string[]>): string[] {
  const crossing: string[] = [];
  for (const [file, deps] of Object.entries(imports)) {
    for (const dep of deps) {
      if (partOf(file) === 'codemods' && partOf(dep) === 'cli') crossing.push(`${file} -> ${dep}`);
      if (partOf(file) === 'cli' && partOf(dep) === 'codemods') crossing.push(`${file} -> ${dep}`);
    }
  }
  return crossing;
}

describe('architecture', async () => {
  const roots = ['src', 'compat', 'codemods', 'cli'];
  const options = { fileExtensions: ['ts'], tsConfig: 'tsconfig.json', excludeRegExp: [/(^|\/)(dist|node_modules)\//] };
  // What loads at run time, and everything a file names (type-only imports included).
  const [runtime, typed] = await Promise.all([
    madge(roots, { ...options, detectiveOptions: { ts: { skipTypeImports: true }, es6: { skipTypeImports: true } } }),
    madge(roots, options),
  ]);
  const imports = typed.obj();

  it('reads every source file, and every import of one', () => {
    expect(Object.keys(imports).length).toBeGreaterThan(200);
    expect(Object.keys(imports)).toContain('src/graphql/handler.ts');
    expect(Object.keys(imports).sort()).toEqual(Object.keys(runtime.obj()).sort());
    // An import madge cannot resolve would be missing from the graph: only packages may be.
    expect(typed.warnings().skipped.filter((dep) => dep.startsWith('.') || /^(src|compat|codemods|cli)\//.test(dep))).toEqual([]);
    // Type-only imports are in the typed graph alone.
    const edges = (graph: Record<string, string[]>) => Object.values(graph).reduce((n, deps) => n + deps.length, 0);
    expect(edges(imports)).toBeGreaterThan(edges(runtime.obj()));
  });

  it('has no import cycles at run time', () => {
    expect(runtime.circular()).toEqual([]);
  });

  it('has no import cycles, type-only imports included', () => {
    expect(typed.circular()).toEqual([]);
  });

  it('imports only downwards between parts, type-only imports included', () => {
    expect(upwardImports(imports)).toEqual([]);
  });

  it('keeps the two command lines apart', () => {
    expect(crossingCommandLines(imports)).toEqual([]);
  });

  it(`has no source file past ${MAX_LINES} lines`, () => {
    const files = SOURCE_DIRS.flatMap(sourceFiles);
    expect(files).toContain(join('codemods', 'bin', 'ergraph-migrate.js'));
    expect(files.some((file) => file.split(/[\\/]/).some((part) => NOT_SOURCE.has(part)))).toBe(false);
    expect(files.length).toBeGreaterThan(Object.keys(imports).length);
    const long = files.flatMap((file) => {
      const lines = lineCount(readFileSync(file, 'utf8'));
      return lines > MAX_LINES ? [`${file}: ${lines} lines`] : [];
    });
    expect(long).toEqual([]);
  });
});
