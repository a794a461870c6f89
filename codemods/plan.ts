/**
 * Which steps a command runs on the code it is given. A rerun must be a no-op that exits 0, so a
 * tree already at (or past) the target still runs the steps that land there: each recognises its
 * own shapes precisely and changes nothing on its own output, and v5 documents, which the text
 * detector cannot see, are still found. A single step given code older than it expects is
 * refused before anything is read further: the steps before it would have to run first.
 */
import { readFileSync } from 'node:fs';
import { SCRIPT_EXTENSIONS } from './lib/parse.js';
import { detectVersion, type Detection } from './detect.js';
import { compareVersions, KNOWN_VERSIONS, stepsBetween } from './versions.js';
import { collectFiles } from './runner/files.js';
import type { StepMeta } from './types.js';

/** The scripts under `paths`, as the detector reads them. */
export function readScripts(paths: readonly string[], cwd: string, ignore: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const f of collectFiles(paths, { cwd, ignore, extensions: SCRIPT_EXTENSIONS }).files) {
    try {
      texts.set(f, readFileSync(f, 'utf8'));
    } catch {
      // unreadable files are reported by the run itself
    }
  }
  return texts;
}

/** The known version right before `to` (`6` → `5.5`). */
function previous(to: string): string {
  const i = KNOWN_VERSIONS.indexOf(to);
  return KNOWN_VERSIONS[Math.max(0, i - 1)]!;
}

export interface UpgradePlan<T extends StepMeta> {
  steps: T[];
  /** For the console: where the run starts and why. */
  line: string;
}

/**
 * `upgrade`'s steps: from `--from`, else from the detected version; never fewer than the steps
 * landing at `to`. Throws a RangeError for a target older than the start.
 */
export function planUpgrade<T extends StepMeta>(to: string, from: string | undefined, detected: () => Detection, all: readonly T[]): UpgradePlan<T> {
  let start = from;
  let line: string;
  if (start !== undefined) {
    if (compareVersions(start, to) > 0) throw new RangeError(`--from ${start} is newer than --to ${to}: ergraph-migrate only upgrades`);
    line = `from ${start}`;
  } else {
    const found = detected();
    start = found.version;
    line = found.version
      ? `detected version ${found.version}: ${found.evidence.join('; ')}`
      : `detected version: no old-API shapes in the code and no installed ergraph${found.evidence.length ? ` (${found.evidence.join('; ')})` : ''}`;
  }
  const last = previous(to);
  const steps = stepsBetween(start !== undefined && compareVersions(start, last) < 0 ? start : last, to, all, true);
  return { steps, line };
}

/**
 * Why a single step must not run on `texts`: the code shows shapes an earlier step rewrites
 * (v5-to-v6 on v5.4 code). Only the code is asked; an installed package may lag behind it.
 */
export function tooOld(step: StepMeta, texts: ReadonlyMap<string, string>, cwd: string, paths: readonly string[], all: readonly StepMeta[]): string | undefined {
  const found = detectVersion(texts, cwd, { codeOnly: true });
  if (!found.version || compareVersions(found.version, step.to) >= 0) return undefined;
  const path = stepsBetween(found.version, step.to, all, true);
  const earlier = path.filter((t) => compareVersions(t.to, step.to) < 0);
  if (earlier.length === 0) return undefined;
  return (
    `${step.name} needs code at ${earlier[earlier.length - 1]!.to} or newer, but this code is at ${found.version} (${found.evidence.join('; ')}). ` +
    `Run \`ergraph-migrate upgrade --to ${step.to} ${paths.join(' ')}\` instead: it runs ${path.map((t) => t.name).join(' → ')}. Nothing was changed.`
  );
}

/** The console line of a run that changed nothing, with the version the code is at. */
export function nothingToDo(texts: ReadonlyMap<string, string>, cwd: string, target: string, marked: number, notForThisApi?: ReadonlySet<string>): string {
  const scripts = new Map([...texts].filter(([f]) => SCRIPT_EXTENSIONS.some((e) => f.endsWith(e))));
  const found = detectVersion(scripts, cwd, { codeOnly: true, notForThisApi });
  const at = found.version ? `detected version ${found.version}: ${found.evidence.join('; ')}` : `detected version ${target}: no old-API shapes left in the code`;
  const left = marked > 0 ? `; ${marked} place${marked === 1 ? '' : 's'} still marked TODO(ergraph-migrate) for you` : '';
  return `nothing to do (${at}${left})`;
}
