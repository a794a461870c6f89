/**
 * A chain in segments, and what each segment's steps did folded into the files' reports. v5-to-v6
 * without a schema is a segment of its own: the schema is looked up in the project as the earlier
 * steps left it.
 */
import { resolve } from 'node:path';
import { append } from '../lib/append.js';
import type { CompanionFile, ManualItem, Transform } from '../types.js';
import type { FileReport, Outcomes } from './types.js';

export function segmentsOf(steps: readonly Transform[], ownSegment: (step: Transform) => boolean): Transform[][] {
  const segments: Transform[][] = [];
  for (const step of steps) {
    if (ownSegment(step) && segments.length > 0) segments.push([step]);
    else if (segments.length === 0) segments.push([step]);
    else segments[segments.length - 1]!.push(step);
  }
  return segments;
}

/** Each file's outcomes into its report and its text; a step's error ends the file's chain. */
export function recordOutcomes(
  outcomes: Outcomes,
  reports: ReadonlyMap<string, FileReport>,
  texts: Map<string, string>,
  companions: Map<string, CompanionFile[]>,
  cwd: string,
  rel: (abs: string) => string,
): void {
  for (const [file, list] of outcomes) {
    const report = reports.get(file)!;
    let text = texts.get(file)!;
    for (const outcome of list) {
      if (outcome.error) {
        const after = report.transforms.length > 0 ? ` (in the output of ${report.transforms.join(', ')})` : '';
        report.error = `${outcome.error.message}${after}`;
        break;
      }
      const result = outcome.result!;
      const tag = <T extends ManualItem>(m: T) => ({ ...m, transform: m.transform ?? outcome.transform });
      append(report.manual, result.manual.map(tag));
      append(report.pending, (result.pending ?? []).map(tag));
      append(report.notForThisApi, (result.notForThisApi ?? []).map(tag));
      append(report.notes, result.notes.map((n) => `${outcome.transform}: ${n.replace(/^.*?:(\d+): /, `${report.file}:$1: `)}`));
      if (result.manifest) report.manifest = { ...result.manifest, ...(result.manifest.mapping ? { mapping: rel(resolve(cwd, result.manifest.mapping)) } : {}) };
      if (result.companions?.length) companions.set(file, result.companions);
      if (outcome.changed ?? result.output !== text) report.transforms.push(outcome.transform);
      text = result.output;
    }
    if (!report.error) texts.set(file, text);
  }
}
