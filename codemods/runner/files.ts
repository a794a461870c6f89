/**
 * Which files a run reads: the given files and directories, minus ignored globs and build output.
 * Symbolic links are never followed (a link could lead outside the tree the dirty-tree guard
 * checked, or to a file the run already has under another name): each is reported and skipped
 * (but a link to a file of a kind no step reads), and so is every entry that cannot be read and
 * every FIFO, socket or device (reading a FIFO would block the run). Each real file is listed once.
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { errorCode } from './same-file.js';

/** Never migrated: dependencies, VCS data and build output are not the user's sources. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'coverage']);

export interface FileSelection {
  cwd: string;
  ignore: readonly string[];
  extensions: readonly string[];
}

/** An entry the run did not read, and why; listed in the report, never fatal. */
export interface SkippedEntry {
  /** Path relative to `cwd`, `/` separators. */
  file: string;
  reason: string;
}

export interface Collected {
  files: string[];
  skipped: SkippedEntry[];
  /** The files listed with more than one hard link, and how many they had when listed. */
  linked: Map<string, number>;
}

export function toPosix(p: string): string {
  return p.split(sep).join('/');
}

/** Why a symbolic link is skipped: where it points, or that it leads nowhere. */
function linkReason(abs: string): string {
  let target = '?';
  try {
    target = readlinkSync(abs);
  } catch {
    // unreadable link text: the reason below still says what it is
  }
  try {
    realpathSync(abs);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') return `symbolic link loop (→ ${target}): not followed`;
    if (code === 'ENOENT') return `dangling symbolic link (→ ${target}): not followed`;
    return `symbolic link (→ ${target}) cannot be resolved (${code}): not followed`;
  }
  const kind = targetKind(abs);
  if (kind === 'file' || kind === 'directory') {
    const what = kind === 'file' ? 'symbolic link' : 'symbolic link to a directory';
    return `${what} (→ ${target}): not followed, so nothing is written through it; migrate its target directly`;
  }
  // `/dev/zero`, a FIFO: nothing a run could migrate, and reading one could block the run.
  return `symbolic link to a ${kind} (→ ${target}): not a regular file, not followed`;
}

/** What a resolvable link leads to: a regular file, a directory, or the special file's kind. */
function targetKind(abs: string): string {
  try {
    const stat = statSync(abs);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : specialKind(stat);
  } catch {
    return 'special file';
  }
}

/** Whether the link leads to a regular file (not a directory, a loop or nothing). */
function linksToFile(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'named pipe (FIFO)';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}

/** The path with every link resolved, or the path itself when that fails (the read then fails and is reported). */
function realOf(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

export function collectFiles(paths: readonly string[], { cwd, ignore, extensions }: FileSelection): Collected {
  const isIgnored = ignore.length > 0 ? picomatch([...ignore], { dot: true }) : () => false;
  const rel = (abs: string) => toPosix(relative(cwd, abs)) || '.';
  const ignored = (abs: string) => {
    const r = toPosix(relative(cwd, abs));
    return isIgnored(r) || isIgnored(`${r}/`);
  };
  const found: string[] = [];
  const linked = new Map<string, number>();
  const seen = new Set<string>();
  const skipped: SkippedEntry[] = [];
  const skippedSeen = new Set<string>();
  const skip = (abs: string, reason: string) => {
    if (skippedSeen.has(abs)) return;
    skippedSeen.add(abs);
    skipped.push({ file: rel(abs), reason });
  };
  const wanted = (abs: string) => extensions.some((ext) => abs.endsWith(ext));
  /**
   * `real` is the entry's path with links resolved: asked of the file system for a path the user
   * named, and below it the parent's plus the name, since the walk never follows a link (a
   * `realpathSync` per file was half of listing a 2,000-file tree).
   */
  const visit = (abs: string, given: boolean, real?: string): void => {
    if (ignored(abs)) return;
    let stat: Stats;
    try {
      stat = lstatSync(abs);
    } catch (error) {
      // A path the user named must exist; an entry that vanished mid-walk is only skipped.
      skip(abs, given ? `cannot read: ${errorCode(error)}` : `vanished while listing: ${errorCode(error)}`);
      return;
    }
    if (stat.isSymbolicLink()) {
      // A link to a file the run does not read anyway (a .json next to the sources) is no news;
      // a link to a directory, a loop or a dangling link may hide sources, so it is reported.
      if (given || wanted(abs) || !linksToFile(abs)) skip(abs, linkReason(abs));
      return;
    }
    if (stat.isDirectory()) {
      let names: string[];
      try {
        names = readdirSync(abs).sort();
      } catch (error) {
        skip(abs, `cannot list the directory: ${errorCode(error)}`);
        return;
      }
      const dir = real ?? realOf(abs);
      for (const name of names) if (!SKIPPED_DIRS.has(name)) visit(join(abs, name), false, join(dir, name));
      return;
    }
    if (!stat.isFile()) {
      skip(abs, `${specialKind(stat)}: not a regular file, not read`);
      return;
    }
    if (!wanted(abs)) return;
    // One real file reached twice (`src` and `src/a.ts`, or through a parent path spelled twice).
    const key = real ?? realOf(abs);
    if (seen.has(key)) return;
    seen.add(key);
    found.push(abs);
    if (stat.nlink > 1) linked.set(abs, stat.nlink);
  };
  for (const p of paths) visit(resolve(cwd, p), true);
  return { files: found, skipped, linked };
}
