/**
 * Issue 26.3: a rerun is a no-op. Every command run again on its own output exits 0, changes
 * nothing and says "nothing to do" with the detected version, with and without `--from`; a single
 * step given code older than it expects names the `upgrade` command to run and changes nothing.
 * The headline cases go through the real binary, as a user (or CI) runs it; the per-fixture sweep
 * goes through `main`, the same code without a process start per run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { main, type CliIO } from '../../codemods/cli.js';
import { findTransform } from '../../codemods/registry.js';
import { FIXTURES, readTree } from './helpers.js';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
}

/** `from` copied into a fresh committed git repository. */
function repo(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-rerun-'));
  dirs.push(dir);
  cpSync(from, dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'input');
  return dir;
}

function commit(dir: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'migrated');
}

async function bin(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: e.stdout ?? '', err: e.stderr ?? String(error) };
  }
}

async function inProcess(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { cwd, stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
  return { code: await main(argv, io), out, err };
}

describe('ergraph-migrate (binary): a rerun is a no-op', () => {
  it('upgrade --to 6 on its own output: exit 0, nothing changed, "nothing to do" with the version; with and without --from', async () => {
    const dir = repo(join(FIXTURES, 'v3-to-v4', 'relationship-options', 'input'));
    const first = await bin(dir, 'upgrade', '--to', '6', '.');
    expect(first.code, first.out + first.err).toBe(0);
    expect(first.out).toMatch(/^detected version 3: /m);
    expect(git(dir, 'status', '--porcelain')).not.toBe('');
    commit(dir);
    const migrated = readTree(dir);
    for (const args of [['upgrade', '--to', '6', '.'], ['upgrade', '--from', '3', '--to', '6', '.'], ['upgrade', '--from', '6', '--to', '6', '.']]) {
      const again = await bin(dir, ...args);
      expect(again.code, `${args.join(' ')}\n${again.out}${again.err}`).toBe(0);
      expect(again.err).not.toMatch(/must be older|usage/);
      expect(again.out).toMatch(/^nothing to do \(detected version 6: /m);
      expect(again.out).toMatch(/, 0 changed, /);
      expect(git(dir, 'status', '--porcelain')).toBe('');
      expect(readTree(dir)).toEqual(migrated);
    }
  }, 600_000);

  it('v5-to-v6 on v5.4 code names the upgrade command to run instead and changes nothing', async () => {
    const dir = repo(join(FIXTURES, 'corpus', 'v5.4-tasks', 'old'));
    const before = readTree(dir);
    const { code, out, err } = await bin(dir, 'v5-to-v6', 'src');
    expect(code).toBe(2);
    expect(err).toContain('diagram.createAutoLoad() (src/views.ts:5)');
    expect(err).toContain('Run `ergraph-migrate upgrade --to 6 src` instead: it runs v5.4-to-v5.5 → federation-config → v5-to-v6. Nothing was changed.');
    // Refused before the code is looked at for a schema: no module of the tree was loaded.
    expect(out + err).not.toMatch(/v6 schema|passed over/);
    expect(readTree(dir)).toEqual(before);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 300_000);
});

/** Every transform's fixture cases, run through that transform's own command. */
const cases = readdirSync(FIXTURES)
  // Folders named after a transform hold its cases; corpus/ and client-corpus/ hold whole apps.
  .filter((t) => findTransform(t))
  .flatMap((transform) => readdirSync(join(FIXTURES, transform)).map((name) => ({ transform, name })));

describe('every command on its own output', () => {
  it.each(cases)('$transform $name: the second run changes nothing, exits 0 and says so', async ({ transform, name }) => {
    const dir = repo(join(FIXTURES, transform, name, 'input'));
    // The manifests are a client of the app fixture's API.
    const schema = join(FIXTURES, transform, name === 'manifests' ? 'app' : name, 'schema.graphql');
    const extra = existsSync(schema) ? ['--schema', schema] : [];
    const first = await inProcess(dir, transform, '.', ...extra);
    expect([0], first.out + first.err).toContain(first.code);
    commit(dir);
    const migrated = readTree(dir);
    const again = await inProcess(dir, transform, '.', ...extra);
    expect(again.code, again.out + again.err).toBe(0);
    expect(again.out).toMatch(/^nothing to do \(detected version /m);
    expect(readTree(dir)).toEqual(migrated);
  }, 300_000);
});
