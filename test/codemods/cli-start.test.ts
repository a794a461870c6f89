/**
 * Issue 31.3: `ergraph-migrate --help`, `list`, `--version` and a usage error answer without
 * loading ts-morph or the TypeScript compiler (their start is timed in bench/codemods.ts, not here).
 * The bin runs in a child process with a preload that lists every module it loaded (CommonJS and ESM).
 * `--help`, `list` and `--version` given alone load no yargs either: its help layout measured every
 * word (codemods/cli-help.ts); their help is checked here against yargs' own for the same declarations.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { catalog } from '../../codemods/catalog.js';
import { helpText, yargsHelp, type CliIO } from '../../codemods/cli.js';
import { transforms } from '../../codemods/registry.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const PRELOAD = fileURLToPath(new URL('../support/loaded-modules.mjs', import.meta.url));
const PARSER = /[\\/]node_modules[\\/](?:ts-morph|@ts-morph|typescript)[\\/]/;
const LAYOUT = /[\\/]node_modules[\\/](?:yargs|cliui|wrap-ansi|string-width|emoji-regex)[\\/]/;
const dir = mkdtempSync(join(tmpdir(), 'ergraph-cli-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function run(args: string[]): { status: number | null; stdout: string; stderr: string; parser: string[]; files: string[] } {
  const out = join(dir, `loaded-${n++}.json`);
  const r = spawnSync(process.execPath, ['--import', PRELOAD, BIN, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, LOADED_MODULES_OUT: out } });
  const loaded = JSON.parse(readFileSync(out, 'utf8')) as { cjs: string[]; esm: string[] };
  const files = [...loaded.cjs, ...loaded.esm.map((url) => (url.startsWith('file:') ? fileURLToPath(url) : url))];
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, parser: files.filter((f) => PARSER.test(f)), files };
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

  // yargs lays out help through cliui and wrap-ansi, which ask string-width for the width of every
  // word: string-width 7 (what an app's install gives them) runs an emoji regex per character, ~130
  // ms of a ~500 ms --help. These three, given alone, answer without yargs (codemods/cli-help.ts).
  it.each([['--help'], ['list'], ['--version']])('%j loads neither yargs nor its layout (cliui, wrap-ansi, string-width)', (arg) => {
    const r = run([arg]);
    expect(r.status).toBe(0);
    expect(r.files.filter((f) => LAYOUT.test(f))).toEqual([]);
  });

  it('a usage error is yargs\' (the check sees yargs when it loads)', () => {
    const r = run(['no-such-step', 'src']);
    expect(r.status).toBe(2);
    expect(r.files.filter((f) => LAYOUT.test(f)).length).toBeGreaterThan(0);
  });

  it('--version and -v print the ergraph-migrate package version, exit 0', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../codemods/package.json', import.meta.url), 'utf8')) as { name: string; version: string };
    expect(pkg.name).toBe('ergraph-migrate');
    for (const flag of ['--version', '-v']) {
      const r = run([flag]);
      expect([r.status, r.stdout, r.stderr], flag).toEqual([0, `${pkg.version}\n`, '']);
    }
  });
});

describe('--help without yargs', () => {
  const io = (columns?: number): CliIO => ({ cwd: dir, stdout: { write: () => true, ...(columns ? { columns } : {}) } as CliIO['stdout'], stderr: { write: () => true } });
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();

  it('says, word for word, what yargs says for the declarations the CLI parses with', async () => {
    const ours = helpText(io());
    const theirs = await yargsHelp();
    for (const t of catalog) expect(ours).toContain(`ergraph-migrate ${t.name} <paths..>`);
    expect(ours).toMatch(/--keep-response-keys +v5-to-v6/);
    expect(words(ours)).toBe(words(theirs));
  });

  it('is what the bin prints for --help', () => {
    expect(run(['--help']).stdout).toBe(`${helpText(io())}\n`);
  });

  // Its layout counts a character as one column: true of ASCII and of these, which no terminal
  // draws wide. A new character in a description must be checked and added here.
  it('holds only characters one column wide', () => {
    expect(helpText(io()).replace(/[\x20-\x7e\n→…]/g, '')).toBe('');
  });

  it.each([80, 60])('keeps to %i columns but for a word longer than its column', (columns) => {
    for (const line of helpText(io(columns)).split('\n')) if (line.length > columns) expect(line.trim()).not.toContain(' ');
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
