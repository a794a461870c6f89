/**
 * Version labels and the order `upgrade` chains steps in, over the steps' metadata only (the
 * catalog), so choosing steps loads none of them.
 */
import { catalog } from './catalog.js';
import type { StepMeta } from './types.js';

/** `'5.4'` → `[5, 4]`; undefined for anything that is not a version label. */
export function parseVersion(label: string): number[] | undefined {
  const cleaned = label.replace(/^v/i, '');
  return /^\d+(\.\d+)*$/.test(cleaned) ? cleaned.split('.').map(Number) : undefined;
}

export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a) ?? [];
  const pb = parseVersion(b) ?? [];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Every version a step starts or ends at, oldest first: the only labels `upgrade` accepts. */
export const KNOWN_VERSIONS: readonly string[] = (() => {
  const labels = catalog.flatMap((t) => [t.from, t.to]);
  return [...new Set(labels)].sort(compareVersions);
})();

/** The known label a user's label stands for (`v5`, `5.0` → `5`), or undefined. */
export function knownVersion(label: string): string | undefined {
  if (!parseVersion(label)) return undefined;
  return KNOWN_VERSIONS.find((v) => compareVersions(v, label) === 0);
}

/**
 * The steps of `all` between two versions: every step whose target lies in (from, to], in version
 * order. A step is chosen by where it lands, so `--from 5.5 --to 6` still includes a `5 → 6` step.
 * With `knownOnly`, only known versions are accepted: a guess (`--from 3.5`, `--to 7`) would quietly pick steps.
 */
export function stepsBetween<T extends StepMeta>(from: string, to: string, all: readonly T[], knownOnly: boolean): T[] {
  for (const v of [from, to]) {
    if (!parseVersion(v)) throw new RangeError(`not a version: ${v} (known versions: ${KNOWN_VERSIONS.join(', ')})`);
    if (knownOnly && !knownVersion(v)) throw new RangeError(`unknown version ${v}: known versions are ${KNOWN_VERSIONS.join(', ')}`);
  }
  if (compareVersions(from, to) >= 0) throw new RangeError(`--from ${from} must be older than --to ${to}`);
  return all
    .map((t, index) => ({ t, index }))
    .filter(({ t }) => compareVersions(t.to, from) > 0 && compareVersions(t.to, to) <= 0)
    .sort((a, b) => compareVersions(a.t.to, b.t.to) || a.index - b.index)
    .map(({ t }) => t);
}
