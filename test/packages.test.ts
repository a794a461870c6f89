/**
 * The two packages this repository ships (issue 44.1; docs/architecture.md): `ergraph` (src/,
 * compat/, cli/) and `ergraph-migrate` (codemods/, compiled with the files of compat/ and src/
 * it imports into its own dist/). Each package's files, and every file they import, import only
 * Node's built-ins and the packages that package declares: a server's install of ergraph carries
 * no migration toolchain, and ergraph-migrate runs where no ergraph 6 is installed. Type-only
 * imports count (tsc compiles the files they name into the package). The versions move in
 * lockstep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const manifest = (dir: string) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourcesUnder(path);
    return /\.(?:[cm]?[jt]s)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `./x.js` from a TypeScript file is `./x.ts` on disk; from JavaScript (the launchers, the jscodeshift transforms), itself. */
function onDisk(from: string, specifier: string): string {
  const file = relative(ROOT, resolve(ROOT, dirname(from), specifier));
  return from.endsWith('.ts') ? file.replace(/\.js$/, '.ts') : file;
}

const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const BUILTIN = new Set(builtinModules);

/** Every file a package's sources reach through relative imports, and the packages each one imports. */
function reach(roots: string[]): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (packages.has(file)) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const named: string[] = [];
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith('.')) queue.push(onDisk(file, fileName));
      else if (!fileName.startsWith('node:') && !BUILTIN.has(fileName)) named.push(packageName(fileName));
    }
    packages.set(file, named);
  }
  return packages;
}

/** The launchers load the sources through tsx only in a checkout without a build; installed, they load dist/. */
const CHECKOUT_ONLY: Record<string, string[]> = { 'codemods/bin/ergraph-migrate.js': ['tsx'], 'bin/ergraph.js': ['tsx'] };

/** `file imports pkg` for each package a file imports that its package does not declare. */
function undeclared(files: Map<string, string[]>, pkg: Manifest): string[] {
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }));
  // A package may import itself by name (self-reference through its exports map).
  const allowed = (file: string, name: string) => name === pkg.name || declared.has(name) || CHECKOUT_ONLY[file]?.includes(name);
  return [...files].flatMap(([file, names]) => names.filter((name) => !allowed(file, name)).map((name) => `${file} imports ${name}`));
}

describe('the two packages', () => {
  const ergraph = manifest('.');
  const migrate = manifest('codemods');
  const ergraphFiles = reach([...sourcesUnder('src'), ...sourcesUnder('compat'), ...sourcesUnder('cli'), ...sourcesUnder('bin')]);
  const migrateFiles = reach(sourcesUnder('codemods'));

  it('ergraph: its files import only its dependencies and peers, none of the migration toolchain', () => {
    expect(ergraphFiles.size).toBeGreaterThan(150);
    expect(undeclared(ergraphFiles, ergraph)).toEqual([]);
    for (const tool of ['ts-morph', 'typescript', 'jscodeshift', 'diff', 'tsx']) expect(Object.keys(ergraph.dependencies ?? {})).not.toContain(tool);
    expect([...ergraphFiles.keys()].filter((file) => file.startsWith('codemods/'))).toEqual([]);
  });

  it('ergraph-migrate: its files and the shared ones they import use only its own dependencies, never ergraph', () => {
    expect(migrateFiles.size).toBeGreaterThan(100);
    expect(undeclared(migrateFiles, migrate)).toEqual([]);
    expect(Object.keys({ ...migrate.dependencies, ...migrate.peerDependencies })).not.toContain('ergraph');
    // What it compiles from the other package's folders: the v5 flat index and document rewrite,
    // the persisted mapping, what both command lines share — no engine.
    const shared = [...migrateFiles.keys()].filter((file) => !file.startsWith('codemods/')).sort();
    expect(shared.filter((file) => !/^(compat\/|src\/(cli-kit|peers|schema)\/)/.test(file))).toEqual([]);
    expect(shared).toContain('compat/flat-index.ts');
    expect(shared).not.toContain('compat/handler.ts');
  });

  it('say where they come from, and ship the one MIT license', () => {
    for (const [dir, pkg] of [['', ergraph], ['codemods', migrate]] as const) {
      const m = pkg as Manifest & { license?: string; repository?: { url: string; directory?: string }; homepage?: string; bugs?: { url: string } };
      expect(m.license).toBe('MIT');
      expect(m.repository?.url).toBe('git+https://github.com/ergraph/ergraph.git');
      expect(m.repository?.directory).toBe(dir || undefined);
      expect([m.homepage, m.bugs?.url].every((url) => url?.startsWith('https://github.com/ergraph/ergraph'))).toBe(true);
    }
    expect(readFileSync(join(ROOT, 'codemods', 'LICENSE'), 'utf8')).toBe(readFileSync(join(ROOT, 'LICENSE'), 'utf8'));
  });

  it('move in lockstep: one version in both manifests and the lockfile', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    expect([migrate.version, lock.packages['']?.version, lock.packages.codemods?.version]).toEqual([ergraph.version, ergraph.version, ergraph.version]);
  });
});
