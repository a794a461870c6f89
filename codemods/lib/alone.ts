/**
 * A file migrated alone — one step as a jscodeshift transform (`options.alone`) — sees none of the
 * project's other files. Where a step's work needs their facts (a relationship declared in
 * another file, the entity class a config moves keys to), its marker says so, and that
 * `ergraph-migrate` on the whole tree does it.
 */
import type { FileChanges } from './changes.js';

const ALONE = 'migrated alone, this file does not see the rest of the project';

/** What a marker of a file migrated alone adds to a reason that needed another file. */
export const wholeRunNote = (step: string) => `${ALONE}: \`npx ergraph-migrate ${step} <paths>\` does`;

/** Whether a reason carries `wholeRunNote`. */
export const needsWholeRun = (reason: string) => reason.includes(ALONE);

/**
 * `ch`, whose markers with a reason `crossFile` matches carry `wholeRunNote` when the file is
 * migrated alone; `ch` itself otherwise.
 */
export function notingOtherFiles(ch: FileChanges, alone: boolean | undefined, step: string, crossFile: RegExp): FileChanges {
  if (!alone) return ch;
  const noted = Object.create(ch) as FileChanges;
  noted.manual = (node, reason) => ch.manual(node, crossFile.test(reason) ? `${reason}; ${wholeRunNote(step)}` : reason);
  return noted;
}
