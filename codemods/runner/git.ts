/**
 * What a run asks git: whether the files it is about to write can be given back (a migration
 * should be easy to review and revert), which files git ignores, which changed since a ref, and
 * one commit per step.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function git(cwd: string, args: string[], input?: string): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** The git work tree a path lies in, or undefined outside any repository. */
export function workTreeOf(path: string): string | undefined {
  const dir = existsSync(path) && statSync(path).isDirectory() ? path : dirname(path);
  return git(dir, ['rev-parse', '--show-toplevel'])?.trim() || undefined;
}

function rootsOf(paths: readonly string[], cwd: string): { roots: Set<string>; outside: string[] } {
  const roots = new Set<string>();
  const outside: string[] = [];
  for (const p of paths) {
    const root = workTreeOf(resolve(cwd, p));
    if (root) roots.add(root);
    else outside.push(p);
  }
  return { roots, outside };
}

/**
 * The work tree of each directory, asking git once per repository rather than once per directory
 * (a spawn per directory was 1.3 s of a run over 1,261 files in 610 directories). Git finds a
 * work tree at the nearest ancestor holding `.git` (a directory, or a file in worktrees and
 * submodules), so the walk up finds the candidate; git itself then names the work tree for each
 * candidate, which also covers what a walk cannot see (GIT_DIR, a `.git` that is no repository).
 */
function workTrees(): (dir: string) => string | undefined {
  const candidates = new Map<string, string | null>();
  const named = new Map<string | null, string | undefined>();
  const candidate = (dir: string): string | null => {
    let found = candidates.get(dir);
    if (found === undefined) {
      const parent = dirname(dir);
      found = existsSync(join(dir, '.git')) ? dir : parent === dir ? null : candidate(parent);
      candidates.set(dir, found);
    }
    return found;
  };
  return (dir) => {
    const key = candidate(dir);
    // No `.git` above: one question for all such directories, asked from the first of them.
    if (!named.has(key)) named.set(key, workTreeOf(key ?? dir));
    return named.get(key);
  };
}

/** Group absolute files by the work tree holding them; files outside any are in `outside`. */
function byWorkTree(files: readonly string[]): { groups: Map<string, string[]>; outside: string[] } {
  const groups = new Map<string, string[]>();
  const outside: string[] = [];
  const workTree = workTrees();
  for (const file of files) {
    const root = workTree(dirname(file));
    if (!root) {
      outside.push(file);
      continue;
    }
    const list = groups.get(root);
    if (list) list.push(file);
    else groups.set(root, [file]);
  }
  return { groups, outside };
}

/** Paths per `git status` call: far below any system's argument-length limit. */
const STATUS_CHUNK = 500;

/**
 * Of the files (absolute) a run is about to write, those git could not give back: the ones in no
 * work tree (`outside`, existing files only: a new file overwrites nothing) and the ones with
 * uncommitted changes, staged or not, or untracked (`dirty`). Files the run only reads are never
 * asked about, so an untracked `schema.graphql` beside the tree does not stop it.
 */
export function unrevertable(files: readonly string[]): { outside: string[]; dirty: string[] } {
  const { groups, outside } = byWorkTree(files);
  const dirty: string[] = [];
  for (const [root, list] of groups) {
    const rels = list.map((f) => relative(root, f));
    const seen = new Set<string>();
    for (let i = 0; i < rels.length; i += STATUS_CHUNK) {
      // Literal pathspecs: a file named `*.ts` or `:x` is that file, not a pattern.
      const out = git(root, ['--literal-pathspecs', 'status', '--porcelain', '-z', '--untracked-files=all', '--', ...rels.slice(i, i + STATUS_CHUNK)]);
      if (out === undefined) throw new Error(`git status failed in ${root}`);
      const entries = out.split('\0');
      for (let j = 0; j < entries.length; j++) {
        const entry = entries[j]!;
        if (entry.length < 4) continue;
        seen.add(entry.slice(3));
        // A rename or copy is followed by the path it came from.
        if (/^[RC]|^.[RC]/.test(entry)) j++;
      }
    }
    for (const [k, rel] of rels.entries()) if (seen.has(rel)) dirty.push(list[k]!);
  }
  return { outside: outside.filter((f) => existsSync(f)), dirty };
}

/** The files git ignores (`.gitignore`, `.git/info/exclude`, the global excludes), asked in one call per work tree. */
export function ignoredByGit(files: readonly string[]): Set<string> {
  const ignored = new Set<string>();
  for (const [root, list] of byWorkTree(files).groups) {
    const out = git(root, ['check-ignore', '--stdin', '-z'], list.map((f) => relative(root, f)).join('\0') + '\0');
    for (const rel of out?.split('\0') ?? []) if (rel) ignored.add(join(root, rel));
  }
  return ignored;
}

export class GitRefError extends Error {
  override name = 'UsageError';
}

/**
 * Files changed since `ref` in the work trees of `paths`: committed since, modified in the work
 * tree, or new and not ignored. Absolute paths.
 */
export function changedSince(ref: string, paths: readonly string[], cwd: string): Set<string> {
  const { roots, outside } = rootsOf(paths, cwd);
  if (outside.length > 0) throw new GitRefError(`--since needs a git repository, and ${outside.join(', ')} is in none`);
  const changed = new Set<string>();
  for (const root of roots) {
    if (git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) === undefined)
      throw new GitRefError(`--since ${ref}: not a commit in ${root}`);
    const diff = git(root, ['diff', '--name-only', '-z', '--no-renames', ref, '--']) ?? '';
    const fresh = git(root, ['ls-files', '--others', '--exclude-standard', '-z']) ?? '';
    for (const rel of [...diff.split('\0'), ...fresh.split('\0')]) if (rel) changed.add(join(root, rel));
  }
  return changed;
}

/** Commits exactly `files` (absolute) in their work trees; returns the new commits' short hashes. */
export function commitFiles(files: readonly string[], message: string): string[] {
  const hashes: string[] = [];
  for (const [root, list] of byWorkTree(files).groups) {
    const rels = list.map((f) => relative(root, f));
    if (git(root, ['add', '--', ...rels]) === undefined) throw new Error(`git add failed in ${root}`);
    if (git(root, ['commit', '-q', '-m', message, '--', ...rels]) === undefined) throw new Error(`git commit failed in ${root}`);
    hashes.push(git(root, ['rev-parse', '--short', 'HEAD'])?.trim() ?? '?');
  }
  return hashes;
}
