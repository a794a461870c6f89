/**
 * `upgrade --to <v>` without `--from`: the starting version read from the code (the oldest old-API
 * shape present, `evidence.ts`) and from the installed `ergraph` package, whichever is older. Text patterns
 * suffice here: they only choose which steps run, and every step recognises its own shapes
 * precisely (a step with nothing to do changes nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { evidenceIn, v5DocumentLines } from './evidence.js';
import { compareVersions, knownVersion, KNOWN_VERSIONS } from './versions.js';

export interface Detection {
  /** The known version the code is at, or undefined when nothing says. */
  version?: string;
  /** What was found, for the console: `LoaderDepend (src/a.ts:3)`, `installed ergraph 3.1.0`. */
  evidence: string[];
}

/** The known version an installed `x.y.z` is: the newest known label not above it. */
export function versionOfPackage(semver: string): string | undefined {
  const [major = 0, minor = 0] = semver.split(/[.-]/).map(Number);
  const label = `${major}.${minor}`;
  const older = KNOWN_VERSIONS.filter((v) => compareVersions(v, label) <= 0 && Number(v.split('.')[0]) === major);
  return older[older.length - 1];
}

/** `node_modules/ergraph/package.json` seen from `cwd` upwards, as Node would find it. */
export function installedErgraph(cwd: string): { version: string; file: string } | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', 'ergraph', 'package.json');
    if (existsSync(file)) {
      try {
        const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
        if (typeof version === 'string') return { version, file };
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** What a v5 document in a script is evidence of: v5's flat root fields are the schema of every version before 6. */
const V5_DOCUMENT = { what: 'GraphQL document with v5 root fields', version: '5.5' };

/**
 * The version `texts` are at: the oldest shape found outside lines already marked for a human,
 * and (unless `codeOnly`) the installed package, whichever is older. `notForThisApi` are the
 * `file:line` of documents a run found to be for another API (their root fields only look like v5's).
 */
export function detectVersion(texts: ReadonlyMap<string, string>, cwd: string, { codeOnly = false, notForThisApi = new Set<string>() as ReadonlySet<string> } = {}): Detection {
  const evidence: string[] = [];
  let version: string | undefined;
  const older = (v: string) => {
    if (version === undefined || compareVersions(v, version) < 0) version = v;
  };
  const seen = new Set<string>();
  const shown = (file: string) => relative(cwd, file).split('\\').join('/');
  for (const [file, text] of texts) {
    for (const site of evidenceIn(text)) {
      if (site.reported || seen.has(site.shape.what)) continue;
      seen.add(site.shape.what);
      older(site.shape.version);
      evidence.push(`${site.shape.what} (${shown(file)}:${site.line}) → ${site.shape.version}`);
    }
  }
  // One document is evidence enough: the texts after it are not scanned for more.
  for (const [file, text] of texts) {
    const line = v5DocumentLines(text).find((l) => !notForThisApi.has(`${file}:${l}`));
    if (line === undefined) continue;
    older(V5_DOCUMENT.version);
    evidence.push(`${V5_DOCUMENT.what} (${shown(file)}:${line}) → ${V5_DOCUMENT.version}`);
    break;
  }
  const installed = codeOnly ? undefined : installedErgraph(cwd);
  if (installed) {
    const label = versionOfPackage(installed.version);
    evidence.push(`installed ergraph ${installed.version}${label ? ` → ${label}` : ''}`);
    if (label) older(label);
  }
  return { version: version && knownVersion(version), evidence };
}
