/**
 * ergraph-migrate and the file system, attacked (issue 13.6): symbolic links are never followed
 * (so nothing outside the tree the dirty-tree guard saw is written), one real file is migrated
 * once whatever names reach it, and dangling, looping or unreadable entries are reported while
 * the run goes on. The binary runs as users get it. Issue 45.4 and 45.6: a link put at a listed
 * name while the run writes is not written through, a signal stops the writes cleanly, and a file
 * name cannot forge report lines.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../codemods/bin/ergraph-migrate.js', import.meta.url));
const V4 = "import { ErDiagram } from 'ergraph';\nexport const diagram = new ErDiagram({ configs: [] });\n";
const root = mkdtempSync(join(tmpdir(), 'ergraph-migrate-links-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
}

/** A committed repository with src/ filled by `fill`, and outside it a directory holding secret.ts. */
function committed(fill: (src: string, outside: string) => void): { repo: string; outside: string } {
  const base = mkdtempSync(join(root, 'case-'));
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.ts'), V4);
  const repo = join(base, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  fill(join(repo, 'src'), outside);
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'v4');
  return { repo, outside };
}

/** src/ holds a real file and every kind of troublesome entry. */
function tree(): { repo: string; outside: string } {
  return committed((src, outside) => {
    writeFileSync(join(src, 'a.ts'), V4);
    symlinkSync(join(outside, 'secret.ts'), join(src, 'link-out.ts'));
    symlinkSync('a.ts', join(src, 'alias.ts'));
    symlinkSync('missing.ts', join(src, 'dangling.ts'));
    symlinkSync('loop2.ts', join(src, 'loop1.ts'));
    symlinkSync('loop1.ts', join(src, 'loop2.ts'));
    symlinkSync(outside, join(src, 'outside-dir'));
  });
}

const run = (cwd: string, args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });

/**
 * Root reads anything (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): as root the run goes without those
 * two capabilities (util-linux's setpriv), so permission bits bind it as they bind a developer. It
 * stays the owner of the checkout, so it still loads the CLI from wherever the checkout is (under
 * /root, in a `mktemp -d` folder), which another user could not.
 */
const runAsUser = (cwd: string, args: string[]) =>
  process.getuid?.() === 0
    ? spawnSync('setpriv', ['--bounding-set=-dac_override,-dac_read_search', process.execPath, BIN, ...args], { cwd, encoding: 'utf8' })
    : run(cwd, args);

describe('ergraph-migrate and symbolic links', () => {
  it('never writes through a link, migrates each real file once, and reports every link it passed over', () => {
    const { repo, outside } = tree();
    // The link and its target both given, the target twice under two spellings.
    const result = run(repo, ['v4-to-v5', 'src', 'src/a.ts', './src/a.ts', 'src/alias.ts', 'src/link-out.ts']);
    expect(result.status, result.stderr).toBe(0);
    expect(readFileSync(join(repo, 'src', 'a.ts'), 'utf8')).toContain('new ErDiagram({ entities: [] })');
    // the file outside the repository, reachable only through a link, is untouched
    expect(readFileSync(join(outside, 'secret.ts'), 'utf8')).toBe(V4);
    expect(result.stdout).toMatch(/v4-to-v5: 1 files scanned, 1 changed, 0 manual, 0 errors, \d+ skipped/);
    const skipped = result.stderr.split('\n').filter((l) => l.startsWith('skipped: '));
    expect(skipped).toContain(`skipped: src/link-out.ts: symbolic link (→ ${join(outside, 'secret.ts')}): not followed, so nothing is written through it; migrate its target directly`);
    expect(skipped).toContain('skipped: src/alias.ts: symbolic link (→ a.ts): not followed, so nothing is written through it; migrate its target directly');
    expect(skipped).toContain('skipped: src/dangling.ts: dangling symbolic link (→ missing.ts): not followed');
    expect(skipped).toContain('skipped: src/loop1.ts: symbolic link loop (→ loop2.ts): not followed');
    expect(skipped).toContain('skipped: src/loop2.ts: symbolic link loop (→ loop1.ts): not followed');
    // a link to a directory outside is not entered (it is no script, so it is not worth a line either)
    expect(result.stderr).not.toContain('secret.ts (left unchanged)');
    // the link itself is still a link, pointing where it did
    expect(readFileSync(join(repo, 'src', 'alias.ts'), 'utf8')).toContain('entities: []');
  }, 60_000);

  it('reports an unreadable file and an unreadable directory and migrates the rest', () => {
    const { repo } = tree();
    writeFileSync(join(repo, 'src', 'locked.ts'), V4);
    chmodSync(join(repo, 'src', 'locked.ts'), 0o000);
    mkdirSync(join(repo, 'src', 'closed'));
    writeFileSync(join(repo, 'src', 'closed', 'b.ts'), V4);
    chmodSync(join(repo, 'src', 'closed'), 0o000);
    const result = runAsUser(repo, ['v4-to-v5', 'src', '--dry-run']);
    chmodSync(join(repo, 'src', 'closed'), 0o755);
    expect(result.error).toBeUndefined(); // e.g. no setpriv (util-linux) to run it without root's reach
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('skipped: src/locked.ts: cannot read: EACCES');
    expect(result.stderr).toContain('skipped: src/closed: cannot list the directory: EACCES');
    expect(result.stdout).toContain('+export const diagram = new ErDiagram({ entities: [] });');
    expect(result.stdout).toMatch(/1 files scanned, 1 would change/);
  }, 60_000);
});

/**
 * The bin with its test seam on (ERGRAPH_MIGRATE_TEST_PAUSE): it prints `paused after writing
 * <file>` after its first file and waits for a line on stdin or a signal. `whilePaused` acts then;
 * nothing here waits on a clock.
 */
async function runPaused(cwd: string, args: string[], whilePaused: (child: ReturnType<typeof spawn>, file: string) => void) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ERGRAPH_MIGRATE_TEST_PAUSE: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let paused = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
    const match = /^paused after writing (.*)$/m.exec(stderr);
    if (match && !paused) {
      paused = true;
      whilePaused(child, match[1]!);
    }
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr, paused };
}

/** src/ holds three v4 files. */
function three(): { repo: string; outside: string } {
  return committed((src) => {
    for (const name of ['a.ts', 'b.ts', 'c.ts']) writeFileSync(join(src, name), V4);
  });
}

describe('ergraph-migrate while it writes (issue 45.4, 45.6)', () => {
  it('does not write through a link put at a listed name after the listing, and says that file was not written', async () => {
    const { repo, outside } = three();
    const secret = join(outside, 'secret.ts');
    const result = await runPaused(repo, ['v4-to-v5', 'src', '--report', 'r.json'], (child) => {
      // Between the first write and the second: src/b.ts becomes a link to the file outside.
      unlinkSync(join(repo, 'src', 'b.ts'));
      symlinkSync(secret, join(repo, 'src', 'b.ts'));
      child.stdin!.end('go\n');
    });
    expect(result.paused, result.stderr).toBe(true);
    expect(readFileSync(secret, 'utf8')).toBe(V4);
    expect(result.stderr).toContain(`error: src/b.ts: not written: it is now a symbolic link (→ ${secret}), not the file the run read; nothing was written through it (left unchanged)`);
    expect(result.code).toBe(1);
    for (const name of ['a.ts', 'c.ts']) expect(readFileSync(join(repo, 'src', name), 'utf8')).toContain('entities: []');
    const report = JSON.parse(readFileSync(join(repo, 'r.json'), 'utf8'));
    expect(report.files.find((f: { file: string }) => f.file === 'src/b.ts')).toMatchObject({ changed: false, error: expect.stringMatching(/^not written: it is now a symbolic link/) });
    expect(report.summary).toMatchObject({ changed: 2, errors: 1 });
  }, 60_000);

  it.each([
    ['SIGTERM', 143, 'r.md'],
    ['SIGINT', 130, 'r.json'],
  ] as const)('%s after the first file: that file finished, the rest untouched, the report written, exit %i with one line', async (name, exit, reportName) => {
    const { repo } = three();
    const result = await runPaused(repo, ['v4-to-v5', 'src', '--report', reportName], (child, file) => {
      expect(file).toBe('src/a.ts');
      child.kill(name);
    });
    expect(result.paused, result.stderr).toBe(true);
    expect(result.signal).toBeNull(); // it exited by itself, not killed
    expect(result.code).toBe(exit);
    expect(readFileSync(join(repo, 'src', 'a.ts'), 'utf8')).toContain('new ErDiagram({ entities: [] })');
    for (const other of ['b.ts', 'c.ts']) expect(readFileSync(join(repo, 'src', other), 'utf8')).toBe(V4);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      `ergraph-migrate: stopped by ${name}: 1 file written in full, 2 not reached and left as they were (skipped above); the report (${reportName}) lists what was written; run the same command again to migrate the rest`,
    );
    expect(lines).toContain(`skipped: src/b.ts: not written: the run was stopped (${name}) before it reached this file; run the command again to migrate it`);
    const report = readFileSync(join(repo, reportName), 'utf8');
    if (reportName.endsWith('.json')) {
      const json = JSON.parse(report);
      expect(json.stopped).toBe(name);
      expect(json.summary).toMatchObject({ changed: 1, skipped: 2, errors: 0 });
      expect(json.files.filter((f: { changed: boolean }) => f.changed).map((f: { file: string }) => f.file)).toEqual(['src/a.ts']);
    } else {
      expect(report).toContain(`**Stopped by ${name}**`);
      expect(report).toMatch(/## Changed files\n\n- `src\/a\.ts` \(v4-to-v5\)\n$/);
    }
    // The rerun finishes the job: the written file is already migrated, the others now are.
    const rerun = run(repo, ['v4-to-v5', 'src']);
    expect(rerun.status, rerun.stderr).toBe(0);
    for (const other of ['b.ts', 'c.ts']) expect(readFileSync(join(repo, 'src', other), 'utf8')).toContain('entities: []');
  }, 60_000);
});
