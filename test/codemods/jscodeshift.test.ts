/**
 * Issue 44.2: every step runs as a jscodeshift transform, with the real jscodeshift binary —
 * `jscodeshift -t codemods/transforms/<step>.js --parser tsx <dir>` — over every fixture case of
 * the step, and each file comes out as the CLI's runner makes it over that case's tree. The files
 * that differ are the ones whose migration needs another file of the tree (a relationship or an
 * entity class declared elsewhere, a barrel, a resolver bound elsewhere) or the v6 schema the CLI
 * finds itself: there jscodeshift leaves a marker naming `npx ergraph-migrate`, and nothing else
 * differs but what those markers hold back. A second jscodeshift run changes nothing (run where
 * markers were added: the runner's own reruns are held by test/codemods/rerun.test.ts).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTransform } from '../../codemods/registry.js';
import { runMigration } from '../../codemods/runner/run.js';
import { loadSchema } from '../../codemods/v5-to-v6/schema.js';
import { FIXTURES, readTree } from './helpers.js';

const JSCODESHIFT = fileURLToPath(new URL('../../node_modules/jscodeshift/bin/jscodeshift.js', import.meta.url));
const TRANSFORMS = fileURLToPath(new URL('../../codemods/transforms/', import.meta.url));
const SCHEMA = join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql');
const EXTENSIONS = 'ts,tsx,js,jsx,mjs,cjs,graphql,gql,vue,svelte,astro';
const root = mkdtempSync(join(tmpdir(), 'ergraph-jscodeshift-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The real binary over `dir`: its summary counts. */
async function jscodeshift(step: string, dir: string, ...args: string[]): Promise<{ ok: number; unmodified: number; errors: number; out: string }> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [JSCODESHIFT, '-t', join(TRANSFORMS, `${step}.js`), '--parser', 'tsx', `--extensions=${EXTENSIONS}`, ...args, dir], { cwd: dir, maxBuffer: 16 << 20 });
  // jscodeshift colours its summary whenever its colour library thinks it may (CI's environment made
  // it so though stdout is a pipe): the counts are read with the colour codes taken out.
  const summary = stripVTControlCharacters(stdout);
  const count = (what: string) => Number(new RegExp(`^(\\d+) ${what}$`, 'm').exec(summary)?.[1] ?? NaN);
  return { ok: count('ok'), unmodified: count('unmodified'), errors: count('errors'), out: stdout + stderr };
}

interface Run {
  /** Each case's files as jscodeshift left them, by `<case>/<file>`. */
  shifted: Map<string, string>;
  /** As the CLI's runner leaves each case's tree. */
  cli: Map<string, string>;
  first: Awaited<ReturnType<typeof jscodeshift>>;
  second?: Awaited<ReturnType<typeof jscodeshift>>;
}

/** Every fixture case of `step` in one folder (a file migrated alone cannot see the other cases), jscodeshift twice, the runner per case. */
async function compare(step: string, label: string, cases: string[], schema: string | undefined, rerun: boolean): Promise<Run> {
  const dir = join(root, label);
  const cli = new Map<string, string>();
  const options = schema ? { schema: await loadSchema(schema) } : {};
  for (const name of cases) {
    cpSync(join(FIXTURES, step, name, 'input'), join(dir, name), { recursive: true });
    const tree = join(root, `${label}-cli`, name);
    cpSync(join(FIXTURES, step, name, 'input'), tree, { recursive: true });
    const report = await runMigration({ transforms: [findTransform(step)!], paths: [tree], cwd: tree, gitignore: false, workers: 0, options });
    expect(report.summary.errors, `${step}/${name}`).toBe(0);
    for (const [file, text] of readTree(tree)) cli.set(`${name}/${file}`, text);
  }
  const args = schema ? [`--schema=${schema}`] : [];
  const first = await jscodeshift(step, dir, ...args);
  const shifted = new Map([...readTree(dir)]);
  const second = rerun ? await jscodeshift(step, dir, ...args) : undefined;
  return { shifted, cli, first, second };
}

const MARKER = /(\/\/|#) TODO\(ergraph-migrate\): (.*)$/;

/** The files jscodeshift left other than the CLI, each with the markers it added that the CLI did not write. */
function differences(run: Run): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [file, text] of run.shifted) {
    if (text === run.cli.get(file)) continue;
    const cliLines = new Set(run.cli.get(file)?.split('\n'));
    out[file] = text.split('\n').filter((line) => MARKER.test(line) && !cliLines.has(line)).map((line) => MARKER.exec(line)![2]!);
  }
  return out;
}

/**
 * Per step and run: the files that come out other than the CLI's, each with whether jscodeshift
 * marks it. A file unmarked here receives what a config elsewhere moves (federation-config: an
 * entity class gets the keys and orders of an `AutoQueryConfig` in another file); that config's
 * file carries the marker.
 */
const DIFFER: Record<string, Record<string, 'marked' | 'held back'>> = {
  // Relationships LoadBy names (declared in another file, or nowhere: alone, a file cannot tell), a barrel's names.
  'v3-to-v4': {
    'import-forms/through-barrel.ts': 'marked',
    'load-by/views.ts': 'marked',
    'load-by-barrel/views.ts': 'marked',
    'manual/entities.ts': 'marked',
    'multiple-relationship/views.ts': 'marked',
  },
  'v4-to-v5': {},
  // Whether another file binds the resolver to the diagram: the CLI adds the call where none does.
  'v5.4-to-v5.5': { 'exported-and-configured/views.ts': 'marked', 'namespace-and-manual/views.ts': 'marked', 'same-file/diagram.ts': 'marked' },
  'federation-config': {
    'cross-file/app.ts': 'marked',
    'cross-file/dto.ts': 'marked',
    'cross-file/entities.ts': 'held back',
    'dto-orders/dto.ts': 'marked',
    'dto-orders/entities.ts': 'held back',
    'entry-points/entities.ts': 'held back',
    'entry-points/from-orm.ts': 'marked',
    'entry-points/from-root.ts': 'marked',
    'entry-points/namespace-orm.ts': 'marked',
    'manual/app.ts': 'marked',
  },
  // An exported document no file of the run imports: the CLI notes it, a file alone cannot tell.
  'v5-to-v6': { 'app/src/queries.ts': 'marked' },
  'v5-to-v6 without a schema': {
    'app/queries/mutations.gql': 'marked',
    'app/queries/users.graphql': 'marked',
    'app/src/TaskCard.svelte': 'marked',
    'app/src/UserList.vue': 'marked',
    'app/src/mcp-client.ts': 'marked',
    'app/src/queries.ts': 'marked',
  },
};

describe.each([
  ['v3-to-v4', 'v3-to-v4', undefined],
  ['v4-to-v5', 'v4-to-v5', undefined],
  ['v5.4-to-v5.5', 'v5.4-to-v5.5', undefined],
  ['federation-config', 'federation-config', undefined],
  ['v5-to-v6', 'v5-to-v6', SCHEMA],
  ['v5-to-v6', 'v5-to-v6 without a schema', undefined],
] as const)('%s as a jscodeshift transform (%s)', (step, label, schema) => {
  let run: Run;
  beforeAll(async () => {
    const cases = step === 'v5-to-v6' ? ['app'] : caseNames(step);
    run = await compare(step, label.replace(/ /g, '-'), cases, schema, Object.keys(DIFFER[label]!).length > 0);
  }, 300_000);

  it('runs every file without an error, and a second run changes nothing', () => {
    expect(run.first.errors, run.first.out).toBe(0);
    expect(run.first.ok, run.first.out).toBeGreaterThan(0);
    if (run.second) expect([run.second.errors, run.second.ok], run.second.out).toEqual([0, 0]);
  });

  it('leaves each file as the CLI does, but where it needs the rest of the tree: marked there for ergraph-migrate', () => {
    const found = differences(run);
    expect(Object.fromEntries(Object.entries(found).map(([file, added]) => [file, added.length > 0 ? 'marked' : 'held back']))).toEqual(DIFFER[label]);
    for (const [file, added] of Object.entries(found)) for (const reason of added) expect(reason, file).toMatch(/`npx ergraph-migrate (v3-to-v4|v5\.4-to-v5\.5|federation-config|v5-to-v6) <paths>`/);
  });
});

function caseNames(step: string): string[] {
  return [...new Set([...readTree(join(FIXTURES, step)).keys()].map((f) => f.split('/')[0]!))].sort();
}
