/**
 * `ergraph-migrate upgrade --from 3 --to 6` on a generated tree of 2,000 files, beside a baseline
 * that only reads and parses the same files with the same parser, in one run.
 * Run: npx tsx bench/codemods.ts [files]
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSchema } from 'graphql';
import { runMigration, upgradePath } from 'ergraph/migrate';
import { collectFiles } from '../codemods/runner/files.js';
import { parseSource, SCRIPT_EXTENSIONS } from '../codemods/lib/parse.js';

const FILES = Number(process.argv[2] ?? 2000);
const STEPS = upgradePath('3', '6');
const SCHEMA = buildSchema('type UserQuery { getAll: [Int!]! byId(id: Int!): Int }\ntype Query { User: UserQuery! }');

function entityFile(i: number): string {
  return `import { z } from 'zod';
import { baseEntity, model, Relationship, LoaderDepend, modelConfig, ErDiagram, Entity } from 'ergraph';
import { load${i} } from '../loaders';

export const Base${i} = baseEntity();

/** Entity number ${i}. */
@modelConfig()
export class E${i} extends model({ id: z.int(), ownerId: z.int(), parentId: z.int().nullable() }) {
  static __ergraph_relationships__ = [
    new Relationship({ field: 'ownerId', targetKls: E${i}, loader: load${i} }),
    new Relationship({
      field: 'parentId',
      targetKls: () => E${i},
      defaultFieldName: 'parent',
      fieldNoneDefault: null,
      loader: load${i},
    }),
  ];
  resolveOwner(loader = LoaderDepend(load${i})) {
    return loader.load(this.ownerId);
  }
}

export const diagram${i} = new ErDiagram({ configs: [new Entity({ kls: E${i} })] });
export const AutoLoad${i} = diagram${i}.createAutoLoad();
`;
}

function viewFile(i: number): string {
  return `import { Annotated, DefineSubset, LoadBy, Resolver, ref } from 'ergraph';
import { gql } from './gql';
import { E${i} } from '../entities/e${i}';

export class View${i} extends DefineSubset(E${i}, ['id'], {
  owner: Annotated(ref(() => View${i}).nullable(), LoadBy('ownerId')),
  boss: Annotated(ref(() => View${i}).nullable(), LoadBy('parentId', { originKls: E${i} })),
}) {}

export const resolver${i} = new Resolver({ loaderFilters: {}, globalLoaderFilter: { tenant: ${i} } });
export const QUERY${i} = gql\`query Q${i} { userGetAll }\`;
`;
}

/** Writes `count` files: half v3 entity modules (with v4/v5.4 forms too), half v3 views. */
export function generate(root: string, count: number): void {
  mkdirSync(join(root, 'entities'), { recursive: true });
  mkdirSync(join(root, 'views'), { recursive: true });
  for (let i = 0; i < count / 2; i++) {
    writeFileSync(join(root, 'entities', `e${i}.ts`), entityFile(i));
    writeFileSync(join(root, 'views', `v${i}.ts`), viewFile(i));
  }
}

function baseline(root: string): number {
  const started = performance.now();
  const files = collectFiles([root], { cwd: root, ignore: [], extensions: SCRIPT_EXTENSIONS });
  for (const file of files) parseSource(readFileSync(file, 'utf8'), file);
  return performance.now() - started;
}

async function migrate(root: string, workers: number, dryRun: boolean): Promise<{ ms: number; changed: number; manual: number; errors: number }> {
  const started = performance.now();
  const report = await runMigration({ transforms: STEPS, paths: [root], cwd: root, workers, dryRun, options: { schema: SCHEMA } });
  const ms = performance.now() - started;
  return { ms, ...report.summary };
}

const RUNS = 3;

/** Median of several runs: the machine this runs on is often shared, so single runs are noisy. */
async function median<T extends { ms: number }>(run: () => Promise<T> | T): Promise<T> {
  const results: T[] = [];
  for (let i = 0; i < RUNS; i++) results.push(await run());
  return results.sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-bench-'));
  try {
    const pristine = join(dir, 'pristine');
    generate(pristine, FILES);
    const copy = (name: string) => {
      cpSync(pristine, join(dir, name), { recursive: true });
      return join(dir, name);
    };
    baseline(pristine);
    await migrate(pristine, 0, true);
    // Dry runs transform and check every file exactly like a real run but write nothing, so the
    // same tree can be measured several times; one real run shows the cost of writing.
    const parse = await median(() => ({ ms: baseline(pristine) }));
    const dry = await median(() => migrate(pristine, 0, true));
    const written = await migrate(copy('written'), 0, false);
    const workers = Math.max(2, Math.min(8, availableParallelism() - 1));
    const parallel = await migrate(copy('parallel'), workers, false);
    const fps = (ms: number) => ((FILES / ms) * 1000).toFixed(0);
    const row = (label: string, ms: number, extra = '') =>
      console.log(`  ${label.padEnd(40)} ${ms.toFixed(0).padStart(7)} ms  ${fps(ms).padStart(7)} files/s${extra}`);
    console.log(`\nergraph-migrate upgrade ${STEPS.map((t) => t.name).join(' → ')} on ${FILES} files (median of ${RUNS})`);
    row('upgrade, 1 thread, --dry-run', dry.ms, `  (${dry.changed} changed, ${dry.manual} manual, ${dry.errors} errors)`);
    row('upgrade, 1 thread, writing (1 run)', written.ms);
    row(`upgrade, ${workers} worker threads, writing (1 run)`, parallel.ms);
    row('baseline: read + parse once', parse.ms);
    console.log(`  ratio upgrade --dry-run / baseline = ${(dry.ms / parse.ms).toFixed(2)}x for ${STEPS.length} steps (${(dry.ms / parse.ms / STEPS.length).toFixed(2)}x per step)`);
    console.log(`  ratio upgrade with ${workers} workers / 1 thread (both writing) = ${(parallel.ms / written.ms).toFixed(2)}x on ${availableParallelism()} cores`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Runs when executed (`npx tsx bench/codemods.ts`), not when imported for its generator.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
