/**
 * Issue 31.3: `ergraph-migrate --help`, `list`, `--version` and a usage error answer without
 * loading ts-morph or the TypeScript compiler (their start is timed in bench/codemods.ts, not here).
 * The bin runs in a child process with a preload that lists every module it loaded (CommonJS and ESM).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { catalog } from '../../codemods/catalog.js';
import { transforms } from '../../codemods/registry.js';

const BIN = fileURLToPath(new URL('../../bin/ergraph-migrate.js', import.meta.url));
const PRELOAD = fileURLToPath(new URL('../support/loaded-modules.mjs', import.meta.url));
const PARSER = /[\\/]node_modules[\\/](?:ts-morph|@ts-morph|typescript)[\\/]/;
const dir = mkdtempSync(join(tmpdir(), 'ergraph-cli-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function run(args: string[]): { status: number | null; stdout: string; stderr: string; parser: string[]; esm: string[] } {
  const out = join(dir, `loaded-${n++}.json`);
  const r = spawnSync(process.execPath, ['--import', PRELOAD, BIN, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, LOADED_MODULES_OUT: out } });
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as { cjs: string[]; esm: string[] };
  const files = [...loaded.cjs, ...loaded.esm.map((url) => (url.startsWith('file:') ? fileURLToPath(url) : url))];
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, parser: files.filter((f) => PARSER.test(f)), esm: loaded.esm };
}

describe('ergraph-migrate start', () => {
  it.each([
    [['--help'], 0, /upgrade/],
    [['list'], 0, /v3-to-v4 +3 → 4/],
    [['--version'], 0, /^\d+\.\d+\.\d+/],
    [['v3-to-vv4', 'src'], 2, /Unknown argument/],
    [['upgrade', '--to', '7', 'src'], 2, /unknown version 7/],
    [['verify', '--help'], 0, /--target-env/],
  ])('%j answers without loading ts-morph or TypeScript', (args, status, text) => {
    const r = run(args);
    expect(r.status).toBe(status);
    expect(r.stdout + r.stderr).toMatch(text);
    expect(r.parser).toEqual([]);
  });

  it('a run that parses scripts does load them (the check sees the parser)', () => {
    writeFileSync(join(dir, 'a.ts'), 'export const x = new ErDiagram({ configs: [] });\n');
    const r = run(['v4-to-v5', '--dry-run', 'a.ts']);
    expect(r.status).toBe(0);
    expect(r.parser.length).toBeGreaterThan(0);
  });

  // yargs lays out --help through cliui and wrap-ansi, which ask string-width for the width of every
  // word. string-width 7 (their own dependency) runs an emoji regex per character: ~130 ms of a
  // ~500 ms --help. package.json's `overrides` gives them yargs' string-width 8, whose ASCII words
  // take a fast path; one copy of it, and no emoji-regex, is what a --help of this install loads.
  it('--help lays out its text with one string-width, not the per-character one', () => {
    const r = run(['--help']);
    expect(r.status).toBe(0);
    expect(r.esm.filter((url) => /[\\/]string-width[\\/]index\.js$/.test(url))).toHaveLength(1);
    expect(r.esm.filter((url) => /[\\/]emoji-regex[\\/]/.test(url))).toEqual([]);
  });

  it('--version prints the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(run(['--version']).stdout.trim()).toBe(pkg.version);
  });
});

describe('the catalog the CLI lists from', () => {
  it('names the registered transforms in their order, with their versions and descriptions', () => {
    const meta = (t: { name: string; from: string; to: string; description: string }) => ({ name: t.name, from: t.from, to: t.to, description: t.description });
    expect(catalog.map(meta)).toEqual(transforms.map(meta));
  });

  it('loads each step as the registered transform', async () => {
    for (const [i, entry] of catalog.entries()) expect(await entry.load()).toBe(transforms[i]);
  });
});
