/**
 * Which file a run read, so that it writes that file and no other (issue 45.4). A name can change
 * between the listing and the write: replaced by a symbolic link to a file outside the tree, by
 * another file, by a FIFO. Every read and write opens the name with O_NOFOLLOW (a link there is
 * refused, not followed) and O_NONBLOCK (a FIFO put there fails instead of blocking the run), and
 * a write checks with fstat that the open file is the one read (its device and inode): the bytes
 * then go to that file, whatever the name holds by then.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, type BigIntStats } from 'node:fs';

/** A file as the file system knows it: device and inode (bigint: 64-bit inodes exceed 2^53). */
export interface FileId {
  dev: bigint;
  ino: bigint;
}

// Windows has neither flag: there a link is a reparse point the run's listing already skipped.
const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Opens the name itself, never a link there, never waiting on a FIFO. */
export function openNoFollow(abs: string, flags: number, mode?: number): number {
  return openSync(abs, flags | NO_FOLLOW, mode);
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** Why the name no longer opens as the file it was: a link there says where it points. */
export function whyNotOpened(abs: string, error: unknown): string {
  const code = errorCode(error);
  if (code === 'ELOOP' || code === 'EMLINK') {
    let target = '?';
    try {
      target = readlinkSync(abs);
    } catch {
      // unreadable link text: the sentence still says what it is
    }
    return `it is now a symbolic link (→ ${target}), not the file the run read; nothing was written through it`;
  }
  if (code === 'ENOENT') return 'it was removed or renamed since the run read it';
  if (code === 'ENXIO') return 'it is now a named pipe (FIFO), not the file the run read';
  return `cannot open it for writing (${code})`;
}

export function idOf(stat: BigIntStats): FileId {
  return { dev: stat.dev, ino: stat.ino };
}

export function sameFile(a: FileId, b: FileId): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** A regular file's bytes and identity, read through one descriptor (a link or a FIFO at the name throws). */
export function readListed(abs: string): { bytes: Buffer; id: FileId } {
  const fd = openNoFollow(abs, constants.O_RDONLY);
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw Object.assign(new Error(`not a regular file: ${abs}`), { code: 'ENOTREG' });
    return { bytes: readFileSync(fd), id: idOf(stat) };
  } finally {
    closeSync(fd);
  }
}
