/**
 * `ergraph-migrate upgrade --from 3 --to 6 --dry-run` on a generated tree of 2,000 old-API files
 * (every file needs changes from several steps), beside the fastest peer for the job: reading the
 * same files and parsing each once with the same parser and options into a tree with parent
 * links (`ts.createSourceFile(..., setParentNodes: true)`), and nothing else. Rounds of the two
 * sides alternate and are timed in CPU time (bench/report.ts `alternate`).
 * Targets (issue 31.4): >= 3,000 files/s in one thread, and at most 3.0x parse-only in CPU time;
 * real code (below) at most 1.2x.
 *
 * A second row asks whether worker threads help on this machine: `workers: 2` against one thread,
 * in wall time (the point of threads), at the same size. `defaultWorkers` (codemods/runner/run.ts)
 * follows what it shows.
 *
 * The last rows time the CLI's start for what needs no step (`--help`, `list`, `--version`, a
 * usage error) against `tsc --version`, in wall time, alternating rounds, medians (issue 31.3:
 * at most 1.2x), as users get it: this build packed (`npm pack`) and installed with plain `npm
 * install` into a fresh project beside the same TypeScript, both bins run from there. This
 * repository's own install is not what users run: its dev dependencies change what npm hoists,
 * and until 2026-11-27 its npm `overrides` (applied here only) gave yargs' layout another
 * string-width than users got.
 * The install is kept in node_modules/.cache/ergraph-bench per tarball (a new build, a new
 * install). None of the four loads ts-morph (test/codemods/cli-start.test.ts).
 *
 * Another row runs the same chain over real code nobody here wrote: the TypeScript sources (not
 * declaration files) that this repository's installed packages ship (zod, ajv, GraphiQL...).
 * Few of them hold anything to migrate, which is how most files of a project look to the chain;
 * it runs as the CLI runs it without a schema (v5-to-v6 a segment of its own).
 *
 * With BENCH_LARGE_TREE=1 the same runs over a larger tree of real code (issue 31.4: >= 2,000
 * files): the TypeScript sources of viem and effect (2,121 files, 27 MB), packages that ship
 * theirs. They are fetched once with `npm pack` (the ordinary registry client) into
 * node_modules/.cache/ergraph-bench and unpacked there; later runs read that cache. Opt-in because
 * it downloads ~15 MB and takes a minute more.
 *
 * Run alone: `npx tsx bench/codemods.ts [files]`; `npm run bench` imports `run` and gets rows.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema } from 'graphql';
import { runMigration, upgradePath, type MigrationReport } from 'ergraph-migrate';
import { collectFiles } from '../codemods/runner/files.js';
import { PARSE_OPTIONS, SCRIPT_EXTENSIONS, scriptKindFor, ts } from '../codemods/lib/parse.js';
import { alternate, mainThreadRatio, median, runAlone, type BenchRow } from './report.js';

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

function parseOnly(root: string): void {
  const { files } = collectFiles([root], { cwd: root, ignore: [], extensions: SCRIPT_EXTENSIONS });
  for (const file of files) ts.createSourceFile(file, readFileSync(file, 'utf8'), PARSE_OPTIONS, true, scriptKindFor(file));
}

async function migrate(root: string, workers: number): Promise<void> {
  const report = await runMigration({ transforms: STEPS, paths: [root], cwd: root, workers, dryRun: true, gitignore: false, options: { schema: SCHEMA } });
  // A run that quietly did less (a step failing on every file) would look fast.
  if (report.summary.errors > 0 || report.summary.changed !== report.summary.files) throw new Error(`unexpected run: ${JSON.stringify(report.summary)}`);
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The commands that must start like `tsc --version` (issue 31.3): none of them loads a step. */
const QUICK: readonly (readonly string[])[] = [['--help'], ['list'], ['--version'], ['no-such-step', 'src']];

/**
 * A fresh project with this build of ergraph-migrate installed from its tarball by plain `npm
 * install`, and the TypeScript this repository has beside it: the two bins as a user's project runs them.
 */
function packedInstall(): string {
  if (!existsSync(join(ROOT, 'codemods/dist/codemods/cli.js'))) throw new Error('codemods/dist/ is not built (npm run build)');
  mkdirSync(CACHE, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', CACHE], { cwd: join(ROOT, 'codemods'), encoding: 'utf8' });
  const tarball = packed.stdout.trim().split('\n').pop()!;
  if (packed.status !== 0 || !tarball.endsWith('.tgz')) throw new Error(`npm pack failed: ${packed.stderr}`);
  const data = readFileSync(join(CACHE, tarball));
  const project = join(CACHE, `consumer-${createHash('sha256').update(data).digest('hex').slice(0, 16)}`);
  const done = join(project, '.done');
  if (!existsSync(done)) {
    for (const old of readdirSync(CACHE)) if (old.startsWith('consumer-')) rmSync(join(CACHE, old), { recursive: true, force: true });
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bench-consumer', version: '1.0.0', type: 'module', private: true }));
    const typescript = (JSON.parse(readFileSync(join(ROOT, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version;
    const installed = spawnSync('npm', ['install', join(CACHE, tarball), `typescript@${typescript}`, '--no-audit', '--no-fund'], { cwd: project, encoding: 'utf8' });
    if (installed.status !== 0) throw new Error(`npm install in ${project} failed: ${installed.stderr}`);
    writeFileSync(done, '');
  }
  rmSync(join(CACHE, tarball));
  return project;
}

const INSTALLED = fileURLToPath(new URL('../node_modules/', import.meta.url));

/** Copies the installed packages' TypeScript sources (no declaration files, no links) into `to`. */
function copyInstalledSources(to: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(INSTALLED, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.[cm]?tsx?$/.test(entry.name) || /\.d\.[cm]?ts$/.test(entry.name)) continue;
    const from = join(entry.parentPath ?? entry.path, entry.name);
    // Not installed code: the large tree's cache (below) lives in node_modules/.cache.
    if (from.startsWith(CACHE)) continue;
    const target = join(to, relative(INSTALLED, from));
    mkdirSync(dirname(target), { recursive: true });
    const data = readFileSync(from);
    writeFileSync(target, data);
    files++;
    bytes += data.length;
  }
  return { files, bytes };
}

/** The large real tree's packages, pinned: the same sources in every run. */
const LARGE_TREE = ['viem@2.57.20', 'effect@4.1.0'];
const CACHE = fileURLToPath(new URL('../node_modules/.cache/ergraph-bench/', import.meta.url));

/** The large tree's TypeScript sources (no declaration files), fetched and unpacked on first use. */
function largeTree(): string {
  const root = join(CACHE, 'large-tree');
  const done = join(CACHE, 'large-tree.done');
  if (existsSync(done) && readFileSync(done, 'utf8') === LARGE_TREE.join(' ')) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const packed = spawnSync('npm', ['pack', ...LARGE_TREE, '--silent', '--pack-destination', CACHE], { encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack ${LARGE_TREE.join(' ')} failed: ${packed.stderr}`);
  for (const tarball of packed.stdout.split('\n').filter((line) => line.endsWith('.tgz'))) {
    const into = join(root, tarball.replace(/\.tgz$/, ''));
    mkdirSync(into);
    const listed = spawnSync('tar', ['tzf', join(CACHE, tarball)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const sources = listed.stdout.split('\n').filter((name) => /\.[cm]?tsx?$/.test(name) && !/\.d\.[cm]?ts$/.test(name));
    const list = join(CACHE, `${tarball}.list`);
    writeFileSync(list, sources.join('\n'));
    const unpacked = spawnSync('tar', ['xzf', join(CACHE, tarball), '-C', into, '-T', list], { encoding: 'utf8' });
    if (listed.status !== 0 || unpacked.status !== 0) throw new Error(`tar ${tarball} failed: ${listed.stderr}${unpacked.stderr}`);
    rmSync(list);
    rmSync(join(CACHE, tarball));
  }
  writeFileSync(done, LARGE_TREE.join(' '));
  return root;
}

const migrateReal = (root: string) =>
  runMigration({ transforms: STEPS, paths: [root], cwd: root, workers: 0, dryRun: true, gitignore: false, resolveSchema: async () => undefined });

async function wallMs(side: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await side();
  return performance.now() - started;
}

/** The CLI's start rows: each quick command beside `tsc --version`, from a packed install. */
export async function cliStartRows(budgetMs: number): Promise<BenchRow[]> {
  const consumer = packedInstall();
  const bin = (path: string, args: readonly string[]) => () => void spawnSync(process.execPath, [join(consumer, 'node_modules', path), ...args], { cwd: consumer, stdio: 'ignore' });
  const startSides: Record<string, () => void> = { tsc: bin('typescript/bin/tsc', ['--version']) };
  for (const args of QUICK) startSides[args.join(' ')] = bin('.bin/ergraph-migrate', args);
  const start = await alternate(startSides, { budgetMs, minRounds: 5, maxRounds: 20, clock: 'wall', warmupMs: 0 });
  return QUICK.map((args) => ({
    bench: 'codemods',
    case: `CLI start (no step loaded), from a packed install (npm pack, npm install), wall time, alternating rounds, Node ${process.versions.node}`,
    subject: `ergraph-migrate ${args.join(' ')}`,
    subjectMs: start.ms[args.join(' ')]!,
    baseline: 'tsc --version',
    baselineMs: start.ms.tsc!,
    target: 1.2,
    rounds: start.rounds,
  }));
}

export async function run({ budgetMs = 20_000, files = FILES }: { budgetMs?: number; files?: number } = {}): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-bench-'));
  try {
    const root = join(dir, 'tree');
    generate(root, files);
    // Most of the budget for the ratio; worker rounds take seconds each, so two of each at most.
    const { ms, threadMs, rounds } = await alternate({ migrate: () => migrate(root, 0), parse: () => parseOnly(root) }, { budgetMs: budgetMs * 0.6, minRounds: 5, maxRounds: 30 });
    const workers = 2;
    const wall: Record<'threads' | 'one', number[]> = { threads: [], one: [] };
    for (let i = 0; i < 2; i++) {
      const order = i % 2 ? (['one', 'threads'] as const) : (['threads', 'one'] as const);
      for (const side of order) wall[side].push(await wallMs(() => migrate(root, side === 'threads' ? workers : 0)));
    }
    const real = join(dir, 'installed');
    const corpus = copyInstalledSources(real);
    let realReport: MigrationReport | undefined;
    const realRun = await alternate({ migrate: async () => void (realReport = await migrateReal(real)), parse: () => parseOnly(real) }, { budgetMs: budgetMs * 0.15, minRounds: 3, maxRounds: 10 });
    const { changed, errors } = realReport!.summary;
    const large = process.env.BENCH_LARGE_TREE === '1' ? largeTree() : undefined;
    let largeRow: BenchRow[] = [];
    if (large) {
      let report: MigrationReport | undefined;
      const largeRun = await alternate({ migrate: async () => void (report = await migrateReal(large)), parse: () => parseOnly(large) }, { budgetMs: budgetMs * 0.3, minRounds: 3, maxRounds: 10 });
      const { files: count, changed: largeChanged, errors: largeErrors } = report!.summary;
      largeRow = [
        {
          bench: 'codemods',
          case: `upgrade 3 → 6 over a large tree of real code: the ${count} TypeScript sources of ${LARGE_TREE.join(' and ')}, 1 thread, no schema`,
          subject: 'ergraph-migrate --dry-run',
          subjectMs: largeRun.ms.migrate!,
          baseline: 'read + parse once (TypeScript, parents)',
          baselineMs: largeRun.ms.parse!,
          target: 1.2,
          rounds: largeRun.rounds,
          note: [`${largeChanged} files to change, ${largeErrors} left with an error`, mainThreadRatio(largeRun.threadMs, 'migrate', 'parse')].filter(Boolean).join('; '),
        },
      ];
    }
    const startRows = await cliStartRows(budgetMs * 0.2);
    const filesPerSecond = (msPerRun: number) => Math.round((files / msPerRun) * 1000);
    return [
      {
        bench: 'codemods',
        case: `upgrade 3 → 6 (${STEPS.length} steps), ${files} files, 1 thread; files/s: ${filesPerSecond(ms.migrate!)} vs ${filesPerSecond(ms.parse!)}`,
        subject: 'ergraph-migrate --dry-run',
        subjectMs: ms.migrate!,
        baseline: 'read + parse once (TypeScript, parents)',
        baselineMs: ms.parse!,
        target: 3.0,
        rounds,
        others: { 'files/s ergraph': filesPerSecond(ms.migrate!), 'files/s parse-only': filesPerSecond(ms.parse!) },
        note: mainThreadRatio(threadMs, 'migrate', 'parse'),
      },
      {
        bench: 'codemods',
        case: `${workers} worker threads vs 1 thread, ${files} files, wall time, ${availableParallelism()} cores`,
        subject: `${workers} workers`,
        subjectMs: median(wall.threads),
        baseline: '1 thread (shared parse)',
        baselineMs: median(wall.one),
        rounds: wall.one.length,
      },
      {
        bench: 'codemods',
        case: `upgrade 3 → 6 over real code: ${corpus.files} TypeScript sources of the installed packages (${(corpus.bytes / 1e6).toFixed(1)} MB), 1 thread, no schema`,
        subject: 'ergraph-migrate --dry-run',
        subjectMs: realRun.ms.migrate!,
        baseline: 'read + parse once (TypeScript, parents)',
        baselineMs: realRun.ms.parse!,
        target: 1.2,
        rounds: realRun.rounds,
        note: [`${changed} files to change, ${errors} left with an error (they do not parse, or hold GraphQL that does not)`, mainThreadRatio(realRun.threadMs, 'migrate', 'parse')].filter(Boolean).join('; '),
      },
      ...largeRow,
      ...startRows,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runAlone(import.meta, run, 30_000);
