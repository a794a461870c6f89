/**
 * Every transform the CLI and the `ergraph-migrate` API know, and the version order `upgrade` chains
 * them in. Adding a transform is one import and one array entry here, and its `meta` in catalog.ts
 * (what the CLI lists without loading any step).
 */
import federationConfig from './federation-config/index.js';
import type { RequiredOption, Transform } from './types.js';
import { stepsBetween } from './versions.js';
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

export { compareVersions, KNOWN_VERSIONS, knownVersion, parseVersion } from './versions.js';

export function findTransform(name: string): Transform | undefined {
  return transforms.find((t) => t.name === name);
}

/**
 * The steps between two versions: every transform whose target lies in (from, to], in version
 * order (versions.ts). Only known versions are accepted for the registered transforms.
 */
export function upgradePath(from: string, to: string, all: readonly Transform[] = transforms): Transform[] {
  return stepsBetween(from, to, all, all === transforms);
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
