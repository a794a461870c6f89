/**
 * Companion files: JSON a step writes beside a file it migrated (v5-to-v6: a manifest's old id →
 * new document mapping). Entries merge into the file already there, so a second run over a
 * manifest whose remaining operations were fixed by hand adds to the first run's mapping.
 */
import { ParseError } from '../types.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The companion's text after a run: the keys already there, then this run's (which win).
 * Throws on an existing file that is not a JSON object, so the migrated file is not written
 * without its companion.
 */
export function mergeCompanion(existing: string, added: Record<string, unknown>, file: string): string {
  let base: Record<string, unknown> = {};
  if (existing.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch (error) {
      throw new ParseError(file, `exists and is not JSON (${(error as Error).message}): move it away and rerun`);
    }
    if (!isObject(parsed)) throw new ParseError(file, 'exists and is not a JSON object: move it away and rerun');
    base = parsed;
  }
  return `${JSON.stringify({ ...base, ...added }, null, 2)}\n`;
}
