/**
 * `upgrade --to <v>` without `--from`: the starting version read from the code (the oldest old-API
 * shape present) and from the installed `ergraph` package, whichever is older. Text patterns
 * suffice here: they only choose which steps run, and every step recognises its own shapes
 * precisely (a step with nothing to do changes nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { compareVersions, knownVersion, KNOWN_VERSIONS } from './versions.js';

/** Shapes only code at that version (or older) has, oldest version first. */
const SHAPES: readonly { version: string; what: string; pattern: RegExp }[] = [
  { version: '3', what: 'LoaderDepend', pattern: /\bLoaderDepend\b/ },
  { version: '3', what: 'modelConfig', pattern: /\bmodelConfig\b/ },
  { version: '3', what: 'LoadBy(...)', pattern: /\bLoadBy\s*\(/ },
  { version: '3', what: 'MultipleRelationship', pattern: /\bMultipleRelationship\b/ },
  { version: '3', what: '__ergraph_relationships__', pattern: /__(?:ergraph|pydantic_resolve)_relationships__/ },
  { version: '3', what: 'Resolver loaderFilters', pattern: /\b(?:loaderFilters|globalLoaderFilter)\b/ },
  { version: '3', what: 'Relationship targetKls', pattern: /\btargetKls\s*:/ },
  { version: '4', what: 'ErDiagram({ configs })', pattern: /\bErDiagram\s*\(\s*\{[^}]*?\bconfigs\b/s },
  { version: '5', what: 'diagram.createAutoLoad()', pattern: /\.createAutoLoad\s*\(/ },
  { version: '5.5', what: 'AutoQueryConfig batchKeys/batchPages', pattern: /\b(?:batchKeys|batchPages)\s*:/ },
  { version: '5.5', what: 'SubsetConfig federationJoinKey', pattern: /\bfederationJoinKey\b/ },
  { version: '5.5', what: 'toCamelCase/toGraphqlFieldName', pattern: /\b(?:toCamelCase|toGraphqlFieldName)\b/ },
  { version: '5.5', what: "MCP get_query_schema({ name })", pattern: /get_(?:query|mutation)_schema[\s\S]{0,200}?\bname\s*:/ },
];

export interface Detection {
  /** The known version the code is at, or undefined when nothing says. */
  version?: string;
  /** What was found, for the console: `LoaderDepend (src/a.ts:3)`, `installed ergraph 3.1.0`. */
  evidence: string[];
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
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

export function detectVersion(texts: ReadonlyMap<string, string>, cwd: string): Detection {
  const evidence: string[] = [];
  let version: string | undefined;
  const older = (v: string) => {
    if (version === undefined || compareVersions(v, version) < 0) version = v;
  };
  const seen = new Set<string>();
  for (const [file, text] of texts) {
    for (const shape of SHAPES) {
      if (seen.has(shape.what)) continue;
      const match = shape.pattern.exec(text);
      if (!match) continue;
      seen.add(shape.what);
      older(shape.version);
      evidence.push(`${shape.what} (${relative(cwd, file).split('\\').join('/')}:${lineOf(text, match.index)}) → ${shape.version}`);
    }
  }
  const installed = installedErgraph(cwd);
  if (installed) {
    const label = versionOfPackage(installed.version);
    evidence.push(`installed ergraph ${installed.version}${label ? ` → ${label}` : ''}`);
    if (label) older(label);
  }
  return { version: version && knownVersion(version), evidence };
}
