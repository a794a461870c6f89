/**
 * `ergraph-migrate upgrade --from 3 --to 6` on a generated tree of 2,000 old-API files, beside a
 * baseline that only reads and parses the same files with the same parser, in one run: rounds of
 * each side alternate and are timed in CPU time, so load from other processes cancels out.
 * Targets (issue 14.5): >= 2,000 files/s in one thread, and at most 2.5x parse-only (>= 0.4x its speed).
 *
 * Run alone: `npx tsx bench/codemods.ts [files]`; `npm run bench` imports `run` and gets rows.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema } from 'graphql';
import { runMigration, upgradePath } from 'ergraph/migrate';
import { collectFiles } from '../codemods/runner/files.js';
import { parseSource, SCRIPT_EXTENSIONS } from '../codemods/lib/parse.js';

const FILES = Number((process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2]) || 2000);
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

/** The shape of a row `npm run bench` prints (bench/report.ts). */
export interface BenchRow {
  bench: string;
  case: string;
  subject: string;
  subjectMs: number;
  baseline: string;
  baselineMs: number;
  others?: Record<string, number>;
  target?: number;
  rounds?: number;
}

function parseOnly(root: string): void {
  const { files } = collectFiles([root], { cwd: root, ignore: [], extensions: SCRIPT_EXTENSIONS });
  for (const file of files) parseSource(readFileSync(file, 'utf8'), file);
}

async function migrate(root: string, workers: number): Promise<void> {
  const report = await runMigration({ transforms: STEPS, paths: [root], cwd: root, workers, dryRun: true, gitignore: false, options: { schema: SCHEMA } });
  if (report.summary.errors > 0 || report.summary.changed !== report.summary.files) throw new Error(`unexpected run: ${JSON.stringify(report.summary)}`);
}

async function cpuMs(side: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await side();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};

/**
 * Rounds of one call per side, the order rotating every round, until the budget is spent; each
 * side's median round in CPU time. Worker threads are timed in wall time (their CPU is not this
 * thread's), in rounds of their own: they are the question "do workers help here?".
 */
export async function run({ budgetMs = 20_000, files = FILES }: { budgetMs?: number; files?: number } = {}): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-bench-'));
  try {
    const root = join(dir, 'tree');
    generate(root, files);
    const sides: Record<string, () => unknown> = { migrate: () => migrate(root, 0), parse: () => parseOnly(root) };
    for (const side of Object.values(sides)) await side(); // warm-up
    const times: Record<string, number[]> = { migrate: [], parse: [] };
    const names = Object.keys(sides);
    const started = performance.now();
    let rounds = 0;
    while (rounds < 3 || (performance.now() - started < budgetMs && rounds < 15)) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + rounds) % names.length]!;
        times[name]!.push(await cpuMs(sides[name]!));
      }
      rounds++;
    }
    const workers = Math.max(2, Math.min(8, availableParallelism() - 1));
    const wall: number[] = [];
    const one: number[] = [];
    for (let i = 0; i < 2; i++) {
      let t = performance.now();
      await migrate(root, workers);
      wall.push(performance.now() - t);
      t = performance.now();
      await migrate(root, 0);
      one.push(performance.now() - t);
    }
    const migrateMs = median(times.migrate!);
    const parseMs = median(times.parse!);
    return [
      {
        bench: 'codemods',
        case: `upgrade 3 → 6 (${STEPS.length} steps), ${files} files, 1 thread`,
        subject: 'ergraph-migrate --dry-run',
        subjectMs: migrateMs,
        baseline: 'read + parse once (TypeScript parser)',
        baselineMs: parseMs,
        target: 2.5,
        rounds,
        others: { 'files/s (subject)': Math.round((files / migrateMs) * 1000), 'files/s (parse)': Math.round((files / parseMs) * 1000) },
      },
      {
        bench: 'codemods',
        case: `${workers} worker threads vs 1 thread, wall time, ${availableParallelism()} cores`,
        subject: `${workers} workers`,
        subjectMs: median(wall),
        baseline: '1 thread (shared parse)',
        baselineMs: median(one),
        rounds: 2,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await run({ budgetMs: Number(process.env.BENCH_BUDGET_MS) || 20_000 });
  for (const r of rows) {
    console.log(`\n${r.case}`);
    console.log(`  ${r.subject.padEnd(40)} ${r.subjectMs.toFixed(0).padStart(7)} ms`);
    console.log(`  ${r.baseline.padEnd(40)} ${r.baselineMs.toFixed(0).padStart(7)} ms`);
    console.log(`  ratio = ${(r.subjectMs / r.baselineMs).toFixed(2)}x${r.target ? ` (target <= ${r.target}x)` : ''}${r.rounds ? `, ${r.rounds} rounds` : ''}`);
    if (r.others) console.log(`  ${Object.entries(r.others).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
}
