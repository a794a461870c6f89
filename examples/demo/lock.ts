/**
 * One demo process per PGlite data directory. PGlite is single-process: a second process opening
 * the same directory sees only its own writes, and whatever it flushes last overwrites the other's
 * (a comment saved through one was gone after a restart). The lock is a file beside the data
 * directory holding the owner's pid, created exclusively; a lock whose process is gone is stale
 * (a crash, a kill -9) and is taken over. Once the demo listens, the lock's second line says
 * where its usage report is: `ergraph compat report --database pglite:<dir>`, refused while the
 * demo holds the directory, points there instead.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

export interface DataDirLock {
  file: string;
  release(): void;
  /** Writes where the holder serves the usage report, for whoever finds the directory busy. */
  announce(usageReport: string): void;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
};

export function lockDataDir(dataDir: string): DataDirLock {
  const file = `${dataDir}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      // Only touch our own lock (a stale-lock takeover elsewhere may have replaced it).
      const ours = () => readFileSync(file, 'utf8').split('\n')[0]!.trim() === String(process.pid);
      return {
        file,
        release() {
          if (released) return;
          released = true;
          if (ours()) rmSync(file, { force: true });
        },
        announce(usageReport) {
          if (!released && ours()) writeFileSync(file, `${process.pid}\n${usageReport}\n`);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new DataDirBusyError(
          `another demo (pid ${owner}) is using ${dataDir}; stop it first, or give this one its own directory with DEMO_DATA_DIR=<dir>`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirBusyError(`could not lock ${dataDir} (${file} keeps reappearing)`);
}
