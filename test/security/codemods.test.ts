/**
 * ergraph-migrate and the file system, attacked (issue 13.6): symbolic links are never followed
 * (so nothing outside the tree the dirty-tree guard saw is written), one real file is migrated
 * once whatever names reach it, and dangling, looping or unreadable entries are reported while
 * the run goes on. The binary runs as users get it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

/** A committed repository whose src/ holds a real file and every kind of troublesome entry. */
function tree(): { repo: string; outside: string } {
  const base = mkdtempSync(join(root, 'case-'));
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.ts'), V4);
  const repo = join(base, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src', 'a.ts'), V4);
  symlinkSync(join(outside, 'secret.ts'), join(repo, 'src', 'link-out.ts'));
  symlinkSync('a.ts', join(repo, 'src', 'alias.ts'));
  symlinkSync('missing.ts', join(repo, 'src', 'dangling.ts'));
  symlinkSync('loop2.ts', join(repo, 'src', 'loop1.ts'));
  symlinkSync('loop1.ts', join(repo, 'src', 'loop2.ts'));
  symlinkSync(outside, join(repo, 'src', 'outside-dir'));
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'v4');
  return { repo, outside };
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
