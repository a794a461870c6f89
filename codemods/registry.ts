/**
 * Every transform the CLI and `ergraph/migrate` know, and the version order `upgrade` chains
 * them in. Adding a transform is one import and one array entry.
 */
import federationConfig from './federation-config/index.js';
import type { RequiredOption, Transform } from './types.js';
import v3ToV4 from './v3-to-v4/index.js';
import v4ToV5 from './v4-to-v5/index.js';
import v54ToV55 from './v5.4-to-v5.5/index.js';
import v5ToV6 from './v5-to-v6/index.js';

/** In upgrade order; ties on `to` keep this order (federation-config before v5-to-v6). */
export const transforms: readonly Transform[] = [
  v3ToV4 as Transform,
  v4ToV5,
  v54ToV55 as Transform,
  federationConfig as Transform,
  v5ToV6 as Transform,
];

export function findTransform(name: string): Transform | undefined {
  return transforms.find((t) => t.name === name);
}

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
  const labels = transforms.flatMap((t) => [t.from, t.to]);
  return [...new Set(labels)].sort(compareVersions);
})();

/** The known label a user's label stands for (`v5`, `5.0` → `5`), or undefined. */
export function knownVersion(label: string): string | undefined {
  if (!parseVersion(label)) return undefined;
  return KNOWN_VERSIONS.find((v) => compareVersions(v, label) === 0);
}

/**
 * The steps between two versions: every transform whose target lies in (from, to], in version
 * order. A step is chosen by where it lands, so `--from 5.5 --to 6` still includes a `5 → 6` step.
 * Only known versions are accepted: a guess (`--from 3.5`, `--to 7`) would quietly pick steps.
 */
export function upgradePath(from: string, to: string, all: readonly Transform[] = transforms): Transform[] {
  for (const v of [from, to]) {
    if (!parseVersion(v)) throw new RangeError(`not a version: ${v} (known versions: ${KNOWN_VERSIONS.join(', ')})`);
    if (all === transforms && !knownVersion(v)) throw new RangeError(`unknown version ${v}: known versions are ${KNOWN_VERSIONS.join(', ')}`);
  }
  if (compareVersions(from, to) >= 0) throw new RangeError(`--from ${from} must be older than --to ${to}`);
  return all
    .map((t, index) => ({ t, index }))
    .filter(({ t }) => compareVersions(t.to, from) > 0 && compareVersions(t.to, to) <= 0)
    .sort((a, b) => compareVersions(a.t.to, b.t.to) || a.index - b.index)
    .map(({ t }) => t);
}

/** A run asked of transforms without an option one of them declares required. */
export class MissingOptionError extends TypeError {
  constructor(readonly missing: readonly { transform: string; option: RequiredOption }[]) {
    super(missing.map(({ transform, option }) => `${transform} needs ${option.flag}: ${option.why}`).join('; '));
    this.name = 'MissingOptionError';
  }
}

/** The declared required options (`Transform.requiredOptions`) that `options` leaves unset. */
export function missingOptions(steps: readonly Transform[], options: Readonly<Record<string, unknown>>): { transform: string; option: RequiredOption }[] {
  return steps.flatMap((t) => (t.requiredOptions ?? []).filter((o) => options[o.name] === undefined).map((option) => ({ transform: t.name, option })));
}
