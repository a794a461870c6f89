/**
 * `runMigration`: read the files, run the transforms, and write the results unless it is a dry
 * run. Files that fail in any step are left byte-identical.
 *
 * Steps run over one parse per file: every script is parsed once, every step scans that tree,
 * then every step adds its edits to one change set per file, applied at once (a chain of five
 * steps costs about one parse and one check, not ten parses). When two steps claim the same text,
 * that file falls back to running the steps one after another on text. Worker threads run the
 * steps one at a time instead, at about 8x the CPU per file; they only pay off with more spare
 * cores than that (see `defaultWorkers`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { relative, resolve } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { applyFile, assertParses, handles, scanFile } from '../apply.js';
import { append } from '../lib/append.js';
import { fileChanges, OverlapError } from '../lib/changes.js';
import { fixImports, type ImportFixes } from '../lib/import-fixes.js';
import { parseSource, parseUnlinked, SCRIPT_EXTENSIONS, type ts } from '../lib/parse.js';
import { Project, scanModule, type ModuleFacts } from '../lib/project.js';
import { bindsHiddenNamesIn, scriptOf, type Script } from '../lib/script.js';
import { importFixes, projectOf, stepWants } from '../script-steps.js';
import { findTransform, MissingOptionError, missingOptions } from '../registry.js';
import type { CompanionFile, ManifestSummary, ManualItem, Transform, TransformOptions, TransformResult } from '../types.js';
import { mergeCompanion } from './companion.js';
import { collectFiles, type SkippedEntry } from './files.js';
import { ignoredByGit } from './git.js';
import { createPool, type Pool } from './pool.js';
import { cloneableOptions, reviveError, type Reply } from './protocol.js';

export interface ResolvedSchema {
  schemas: GraphQLSchema[];
  /** Where it came from, for the console and the report. */
  source: string;
}

export interface MigrationOptions {
  /** Transforms (or their registered names) in the order to run them. */
  transforms: readonly (Transform | string)[];
  paths: readonly string[];
  cwd?: string;
  dryRun?: boolean;
  ignore?: readonly string[];
  /** Worker threads; `0` runs in this thread. Default: parallel only for large trees on machines with spare cores. */
  workers?: number;
  options?: TransformOptions;
  onProgress?: (done: number, total: number, step: string) => void;
  /** Only these files (absolute paths) are migrated; every file is still read for cross-file facts (`--since`). */
  only?: ReadonlySet<string>;
  /** Leave out files git ignores (default true). */
  gitignore?: boolean;
  /**
   * Asked before v5-to-v6 when `options` carries no schema, with the texts as migrated so far
   * (after `upgrade`'s earlier steps): finds the v6 schema from the project itself.
   */
  resolveSchema?: (texts: ReadonlyMap<string, string>) => Promise<ResolvedSchema | undefined>;
}

export interface FileReport {
  /** Path relative to `cwd`, with `/` separators. */
  file: string;
  changed: boolean;
  transforms: string[];
  manual: (ManualItem & { transform: string })[];
  notes: string[];
  /** v5-to-v6 documents left for a run with a schema; each reason is the next step. */
  pending: (ManualItem & { transform: string })[];
  /** GraphQL documents for another API, left alone. */
  notForThisApi: (ManualItem & { transform: string })[];
  error?: string;
  before: string;
  after: string;
  /** A persisted-query manifest: its format, how many operations were rewritten, and its mapping file (relative to `cwd`). */
  manifest?: ManifestSummary;
  /** Written beside a migrated file (a manifest's mapping): the file it belongs to, relative to `cwd`. */
  companionOf?: string;
}

export interface MigrationReport {
  transforms: string[];
  dryRun: boolean;
  files: FileReport[];
  /** Entries not read: symbolic links, unreadable files and directories. */
  skipped: SkippedEntry[];
  /** Where the v6 schema came from (v5-to-v6), or why there was none. */
  schemaSource?: string;
  summary: {
    files: number;
    /** Scanned files changed (files written beside them, such as manifest mappings, are `companions`). */
    changed: number;
    companions: number;
    manual: number;
    errors: number;
    pending: number;
    notForThisApi: number;
    skipped: number;
    ignored: number;
    seconds: number;
  };
}

/**
 * Source text whose trees a run holds at once; past it, a wanted file is parsed again by each
 * pass that reads it (scan, then apply) instead of being held. A held tree with its index and
 * script takes ~40-50x its source in live heap, so a large enough project ran out of heap with
 * every tree held: 16,000 generated old-API files (11.2 MB) in a 512 MB heap failed with every
 * tree held and with heap/66 of source held, and finished with heap/100 and heap/128. The
 * budget follows Node's heap limit (`--max-old-space-size`): 34 MB of source by default here.
 */
let heldSourceBudget = Math.floor(getHeapStatistics().heap_size_limit / 128);

/** For tests: a run holds trees for at most `bytes` of source (returns the previous budget). */
export function setHeldSourceBudget(bytes: number): number {
  const previous = heldSourceBudget;
  heldSourceBudget = bytes;
  return previous;
}

/** Below this many files, starting threads costs more than it saves. */
export const PARALLEL_THRESHOLD = 400;

function resolveTransforms(list: MigrationOptions['transforms']): Transform[] {
  return list.map((t) => {
    if (typeof t !== 'string') return t;
    const found = findTransform(t);
    if (!found) throw new RangeError(`unknown transform: ${t}`);
    return found;
  });
}

/**
 * How many times the shared-parse chain's CPU a file costs in the worker pool, which runs the
 * steps one at a time (a parse per step and per scan), clones every text and starts threads.
 * Measured with `bench/codemods.ts` on 2 cores, 2,000 files: 2 workers took 8.4x the wall time
 * of one thread (10.5 s against 1.26 s), so each file costs the pool about 8x.
 */
export const POOLED_COST = 8;
const MAX_WORKERS = 16;

/**
 * Threads only where they can win: a large tree, and more spare cores than the pool's extra cost
 * per file (on fewer, one thread finishes first). On this project's 2-core machine that is never;
 * the 10-core threshold follows from the measured cost, not from a run on such a machine.
 * A pool that ran the shared chain would not change that on 2 cores: two threads each running the
 * whole chain on half of 8,000 files (no facts crossing, the best such a pool could do) took
 * 6.4–7.0 s of wall time against 5.6 s for one thread on all of them, since one thread's
 * collector already keeps the second core busy and a new thread starts TypeScript cold.
 */
export function defaultWorkers(files: number, cores = availableParallelism()): number {
  const spare = Math.min(MAX_WORKERS, cores - 1);
  return files >= PARALLEL_THRESHOLD && spare > POOLED_COST ? spare : 0;
}

const isScript = (file: string) => SCRIPT_EXTENSIONS.some((e) => file.endsWith(e));

/**
 * The steps' import fixes as one. Plain loops: built per file, and `Object.assign({}, ...list)`
 * over the steps' differently shaped `rename` maps took a slow generic path (~1% of a run).
 */
function mergeFixes(all: readonly ImportFixes[]): ImportFixes {
  const drop = new Set<string>();
  const removeReExports = new Set<string>();
  const rename: Record<string, string> = {};
  let relocate = false;
  for (const f of all) {
    for (const name of f.drop ?? []) drop.add(name);
    for (const name of f.removeReExports ?? []) removeReExports.add(name);
    if (f.rename) for (const name of Object.keys(f.rename)) rename[name] = f.rename[name]!;
    relocate ||= !!f.relocate;
  }
  return { drop: [...drop], rename, removeReExports: [...removeReExports], relocate };
}

interface StepOutcome {
  transform: string;
  result?: TransformResult;
  error?: Error;
  /** In the shared pass every step reports the combined text: this says whether this step edited it. */
  changed?: boolean;
}

/** Per file: what each step did, in order. */
type Outcomes = Map<string, StepOutcome[]>;

/** The steps over one shared parse per script; other files (GraphQL documents) through `apply`. */
function runShared(
  steps: readonly Transform[],
  files: readonly string[],
  texts: Map<string, string>,
  options: TransformOptions,
  project: { facts: ModuleFacts[] },
  trees: Map<string, Script>,
  /** Scripts no step has work in, read without holding their trees: they come out as they went in. */
  quiet: ReadonlySet<string>,
  /** Scripts past the memory budget: parsed again when a pass reaches them, then let go. */
  unheld: ReadonlySet<string>,
  progress: () => void,
): Outcomes {
  // A file past the budget parsed without an error before, so it parses again.
  const scriptFor = (file: string, text: string): Script | undefined =>
    trees.get(file) ?? (unheld.has(file) ? scriptOf(parseSource(text, file), projectOf(options)) : undefined);
  const outcomes: Outcomes = new Map();
  const facts = new Map<Transform, unknown[]>(steps.map((t) => [t, []]));
  const failed = new Map<string, Error>();
  // Scan: every step reads the one tree of each file.
  for (const file of files) {
    if (quiet.has(file)) continue;
    const text = texts.get(file)!;
    const script = scriptFor(file, text);
    for (const step of steps) {
      if (!handles(step, file)) continue;
      try {
        if (script && step.script) {
          if (step.script.scan && stepWants(step.script, script)) append(facts.get(step)!, step.script.scan(script));
        } else if (!script || !step.script) append(facts.get(step)!, scanFile(step, text, file));
      } catch (error) {
        failed.set(file, error as Error);
      }
    }
  }
  for (const file of files) {
    const text = texts.get(file)!;
    const mine = steps.filter((s) => handles(s, file));
    if (failed.has(file)) {
      outcomes.set(file, [{ transform: mine[0]?.name ?? '?', error: failed.get(file) }]);
      progress();
      continue;
    }
    if (quiet.has(file)) {
      outcomes.set(file, [{ transform: mine[0]!.name, result: { output: text, manual: [], notes: [] } }]);
      progress();
      continue;
    }
    const script = scriptFor(file, text);
    if (script && mine.every((s) => s.script)) {
      try {
        const ch = fileChanges(script.sf);
        const active = mine.filter((s) => stepWants(s.script!, script));
        const edited = new Set<string>();
        for (const step of active) {
          const before = ch.edits.length;
          ch.step = step.name;
          step.script!.apply(script, { facts: facts.get(step)!, options, changes: ch });
          if (ch.edits.length > before) edited.add(step.name);
        }
        ch.step = undefined;
        const importEdits = ch.edits.length;
        fixImports(ch, script.imports, mergeFixes(active.map((s) => importFixes(s.script!, script))));
        const last = active[active.length - 1]?.name;
        if (last && ch.edits.length > importEdits && edited.size === 0) edited.add(last);
        const result = ch.result();
        const list: StepOutcome[] = active.map((step, i) => {
          const isLast = i === active.length - 1;
          const prefix = `${step.name}: `;
          return {
            transform: step.name,
            changed: edited.has(step.name),
            result: {
              output: result.output,
              manual: result.manual.filter((m) => (m.transform ?? last) === step.name),
              // Notes of the merged import pass (no step prefix) go with the last step.
              notes: result.notes.filter((n) => n.startsWith(prefix) || (isLast && !active.some((a) => n.startsWith(`${a.name}: `)))).map((n) => (n.startsWith(prefix) ? n.slice(prefix.length) : n)),
              ...(step.script!.finish?.(script) ?? {}),
            },
          };
        });
        outcomes.set(file, list.length > 0 ? list : [{ transform: mine[0]!.name, result: { output: text, manual: [], notes: [] } }]);
        // Done with this tree: the collector can take it back while the other files are migrated.
        trees.delete(file);
        progress();
        continue;
      } catch (error) {
        if (!(error instanceof OverlapError)) {
          outcomes.set(file, [{ transform: mine[0]!.name, error: error as Error }]);
          progress();
          continue;
        }
        // Two steps claimed the same text: this file runs the steps one after another instead.
        if (process.env.DBG) console.error('fallback', file, (error as Error).message);
      }
    }
    let current = text;
    const list: StepOutcome[] = [];
    for (const step of mine) {
      const outcome = applyFile(step, current, file, facts.get(step)!, options, false);
      list.push({ transform: step.name, result: outcome.result, error: outcome.error });
      if (outcome.error) break;
      current = outcome.result!.output;
    }
    outcomes.set(file, list);
    progress();
  }
  return outcomes;
}

/** One step at a time in worker threads (the pool gets the step's facts, then the files). */
async function runPooled(
  steps: readonly Transform[],
  files: readonly string[],
  texts: Map<string, string>,
  options: TransformOptions,
  pool: Pool,
  progress: () => void,
): Promise<Outcomes> {
  const outcomes: Outcomes = new Map(files.map((f) => [f, []]));
  const current = new Map(files.map((f) => [f, texts.get(f)!]));
  for (const step of steps) {
    const mine = files.filter((f) => handles(step, f) && !outcomes.get(f)!.some((o) => o.error));
    const facts: unknown[] = [];
    const failed = new Map<string, Error>();
    if (step.scan) {
      const replies = await pool.run(mine.map((file) => ({ op: 'scan', transform: step.name, file, source: current.get(file)! })));
      replies.forEach((reply, i) => {
        if ('facts' in reply) append(facts, reply.facts);
        else if ('error' in reply) failed.set(mine[i]!, reviveError(reply.error));
      });
    }
    const pending = mine.filter((f) => !failed.has(f));
    for (const [file, error] of failed) outcomes.get(file)!.push({ transform: step.name, error });
    pool.broadcast({ op: 'facts', transform: step.name, facts, options: cloneableOptions(options) });
    const replies: Reply[] = await pool.run(pending.map((file) => ({ op: 'apply', transform: step.name, file, source: current.get(file)! })), progress);
    replies.forEach((reply, i) => {
      const file = pending[i]!;
      if ('result' in reply) {
        outcomes.get(file)!.push({ transform: step.name, result: reply.result });
        current.set(file, reply.result.output);
      } else if ('error' in reply) outcomes.get(file)!.push({ transform: step.name, error: reviveError(reply.error) });
    });
  }
  return outcomes;
}

export async function runMigration(opts: MigrationOptions): Promise<MigrationReport> {
  const started = performance.now();
  const cwd = resolve(opts.cwd ?? process.cwd());
  const steps = resolveTransforms(opts.transforms);
  let options: TransformOptions = { ...(opts.options ?? {}) };
  // Refused before any file is read: without it every file would fail the same way.
  const missing = missingOptions(steps, options);
  if (missing.length > 0) throw new MissingOptionError(missing);
  const extensions = [...new Set(steps.flatMap((t) => t.extensions))];
  const collected = collectFiles(opts.paths, { cwd, ignore: opts.ignore ?? [], extensions });
  const ignored = opts.gitignore === false ? new Set<string>() : ignoredByGit(collected.files);
  const skipped = [...collected.skipped];
  const rel = (abs: string) => relative(cwd, abs).split('\\').join('/');
  const reports = new Map<string, FileReport>();
  const texts = new Map<string, string>();
  for (const abs of collected.files) {
    if (ignored.has(abs)) continue;
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch (error) {
      skipped.push({ file: rel(abs), reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
      continue;
    }
    // JSON files are read by content: only the manifests a step claims are part of the run.
    if (!steps.some((t) => handles(t, abs) && (!t.claims || t.claims(text, abs)))) continue;
    texts.set(abs, text);
    reports.set(abs, { file: rel(abs), changed: false, transforms: [], manual: [], notes: [], pending: [], notForThisApi: [], before: text, after: text });
  }
  const files = [...texts.keys()];
  const only = opts.only;
  const workers = opts.workers ?? defaultWorkers(files.length);
  const poolable = steps.every((t) => findTransform(t.name) === t);
  const pool = workers > 0 && poolable ? createPool(workers) : undefined;

  // The module graph, from one parse of every script, and the trees the shared pass will read.
  // Only trees a step may use are held: a file no step's text test wants and that binds no
  // ergraph name out of sight (read from its module facts) has nothing to migrate: a run over
  // 7.2 MB of real code peaked at 368 MB with every tree held, 277 MB without those. Wanted
  // files past `heldSourceBudget` are not held either.
  const trees = new Map<string, Script>();
  const quiet = new Set<string>();
  const unheld = new Set<string>();
  const moduleFacts: ModuleFacts[] = [];
  // Parses a later segment reuses: `upgrade --to 6` without a schema runs v5-to-v6 as a segment of
  // its own, and most files of a real project come out of the earlier steps as they went in (a
  // second parse of every file was a third of such a run over 1,261 files of real code). Each
  // segment gets fresh scripts over the kept trees: their imports are read with its project.
  const parsed = new Map<string, { text: string; facts: ModuleFacts; sf?: ts.SourceFile }>();
  // The last text of each script that parsed: a later segment's parse of an earlier one's output
  // is that output's check already, so the final check skips a text found here (with the schema
  // looked up, every file an earlier step changed and v5-to-v6 left alone was parsed twice more).
  const verified = new Map<string, string>();
  const parseAll = (segment: readonly Transform[], keep: boolean) => {
    trees.clear();
    quiet.clear();
    unheld.clear();
    moduleFacts.length = 0;
    // A step without a tree-level test (a text transform) may want anything. Mentioning ergraph
    // is not enough: a step edits only files it wants (`stepWants`), and the ergraph names a text
    // test cannot see are the hidden ones, checked below. (Holding every file that imports
    // ergraph kept the v5-to-v6 segment of an upgrade parsing, linking and holding every entity
    // module it then left alone: 2,000 generated files, 0.86x the CPU time without them.)
    const wanted = (text: string) => segment.some((t) => !t.script || t.script.wants(text));
    const unwanted: { file: string; text: string; facts: ModuleFacts }[] = [];
    let held = 0;
    const hold = (file: string, text: string, facts: ModuleFacts, sf: ts.SourceFile) => {
      if (pool) return;
      held += text.length;
      if (held > heldSourceBudget) {
        unheld.add(file);
        if (keep) parsed.set(file, { text, facts });
        return;
      }
      if (keep) parsed.set(file, { text, facts, sf });
      trees.set(file, scriptOf(sf));
    };
    for (const file of files) {
      if (!isScript(file) || reports.get(file)!.error) continue;
      const text = texts.get(file)!;
      try {
        const kept = parsed.get(file);
        const entry = kept?.text === text ? kept : undefined;
        if (!wanted(text)) {
          // No parent links or index for a tree only its top-level statements are read from.
          const facts = entry?.facts ?? scanModule(parseUnlinked(text, file));
          verified.set(file, text);
          if (keep) parsed.set(file, { text, facts });
          unwanted.push({ file, text, facts });
          moduleFacts.push(facts);
          continue;
        }
        const sf = entry?.sf ?? parseSource(text, file);
        verified.set(file, text);
        const facts = entry?.facts ?? scanModule(sf);
        moduleFacts.push(facts);
        hold(file, text, facts, sf);
      } catch (error) {
        reports.get(file)!.error = (error as Error).message;
      }
    }
    if (!keep) parsed.clear();
    const project = new Project(moduleFacts);
    for (const { file, text, facts } of unwanted) {
      // Parsed again in the rare case: a name its text never spells, through a barrel.
      if (!bindsHiddenNamesIn(facts, text, project)) quiet.add(file);
      else if (!pool) hold(file, text, facts, parseSource(text, file));
    }
    for (const script of trees.values()) script.project = project;
    options = { ...options, project };
  };

  // v5-to-v6 without a schema: find it from the project, as migrated so far.
  const needsSchema = (t: Transform) => t.name === 'v5-to-v6' && !options.schema && !(options.schemas && options.schemas.length > 0);
  const segments: Transform[][] = [];
  for (const step of steps) {
    if (needsSchema(step) && opts.resolveSchema && segments.length > 0) segments.push([step]);
    else if (segments.length === 0) segments.push([step]);
    else segments[segments.length - 1]!.push(step);
  }
  let schemaSource: string | undefined;
  const companions = new Map<string, CompanionFile[]>();
  try {
    for (const [i, segment] of segments.entries()) {
      if (needsSchema(segment[0]!) && opts.resolveSchema) {
        const found = await opts.resolveSchema(texts);
        if (found) {
          options = { ...options, schemas: found.schemas };
          schemaSource = found.source;
        } else schemaSource = 'none found';
      }
      // Kept only for steps that have not read these trees yet (their caches on a tree are their own).
      const later = segments.slice(i + 1).flat();
      parseAll(segment, later.length > 0 && !later.some((t) => segments.slice(0, i + 1).flat().includes(t)));
      const mine = files.filter((f) => segment.some((t) => handles(t, f)) && !reports.get(f)!.error);
      let done = 0;
      const label = segment.map((t) => t.name).join(' → ');
      const progress = () => opts.onProgress?.(++done, mine.length, label);
      const outcomes = pool
        ? await runPooled(segment, mine, texts, options, pool, progress)
        : runShared(segment, mine, texts, options, { facts: moduleFacts }, trees, quiet, unheld, progress);
      for (const [file, list] of outcomes) {
        const report = reports.get(file)!;
        let text = texts.get(file)!;
        for (const outcome of list) {
          if (outcome.error) {
            const after = report.transforms.length > 0 ? ` (in the output of ${report.transforms.join(', ')})` : '';
            report.error = `${outcome.error.message}${after}`;
            break;
          }
          const result = outcome.result!;
          const tag = <T extends ManualItem>(m: T) => ({ ...m, transform: m.transform ?? outcome.transform });
          append(report.manual, result.manual.map(tag));
          append(report.pending, (result.pending ?? []).map(tag));
          append(report.notForThisApi, (result.notForThisApi ?? []).map(tag));
          append(report.notes, result.notes.map((n) => `${outcome.transform}: ${n.replace(/^.*?:(\d+): /, `${report.file}:$1: `)}`));
          if (result.manifest) report.manifest = { ...result.manifest, ...(result.manifest.mapping ? { mapping: rel(resolve(cwd, result.manifest.mapping)) } : {}) };
          if (result.companions?.length) companions.set(file, result.companions);
          if (outcome.changed ?? result.output !== text) report.transforms.push(outcome.transform);
          text = result.output;
        }
        if (!report.error) texts.set(file, text);
      }
      // A file this segment changed (or failed) is not reused: its old tree can go now.
      for (const [file, entry] of parsed) if (texts.get(file) !== entry.text || reports.get(file)!.error) parsed.delete(file);
    }
  } finally {
    await pool?.close();
  }
  // Companion files (a manifest's mapping): merged into what is on disk, written after their file.
  const written: FileReport[] = [];
  const companionTexts = (list: readonly CompanionFile[], report: FileReport) => {
    const out: { abs: string; before: string; after: string }[] = [];
    for (const c of list) {
      const target = resolve(cwd, c.file);
      try {
        const before = existsSync(target) ? readFileSync(target, 'utf8') : '';
        out.push({ abs: target, before, after: mergeCompanion(before, c.json, rel(target)) });
      } catch (error) {
        // Without its mapping the old ids are lost: the file itself is not written either.
        report.error = (error as Error).message;
        return [];
      }
    }
    return out;
  };
  for (const [abs, report] of reports) {
    const text = texts.get(abs)!;
    if (only && !only.has(abs)) {
      // Read for facts only (`--since`): reported as unchanged, never written.
      Object.assign(report, { manual: [], notes: [], pending: [], notForThisApi: [], transforms: [], error: undefined, after: report.before, changed: false });
      continue;
    }
    if (!report.error && text !== report.before && verified.get(abs) !== text) {
      try {
        assertParses(text, abs);
      } catch (error) {
        report.error = `${(error as Error).message} (after ${report.transforms.join(', ')})`;
      }
    }
    // Any error leaves the file exactly as it was, even if an earlier step had changed it.
    report.after = report.error ? report.before : text;
    report.changed = report.after !== report.before;
    const beside = report.changed ? companionTexts(companions.get(abs) ?? [], report) : [];
    if (report.error) {
      report.after = report.before;
      report.changed = false;
      report.transforms = [];
      delete report.manifest;
    }
    if (report.changed && !opts.dryRun) writeFileSync(abs, report.after);
    for (const c of report.error ? [] : beside) {
      if (!opts.dryRun) writeFileSync(c.abs, c.after);
      written.push({
        file: rel(c.abs),
        changed: c.after !== c.before,
        transforms: report.transforms.slice(-1),
        manual: [],
        notes: [],
        pending: [],
        notForThisApi: [],
        before: c.before,
        after: c.after,
        companionOf: report.file,
      });
    }
  }
  const list = [...reports.values()].filter((r) => !only || only.has(resolve(cwd, r.file))).concat(written);
  return {
    transforms: steps.map((t) => t.name),
    dryRun: opts.dryRun ?? false,
    files: list,
    skipped,
    schemaSource,
    summary: {
      files: list.filter((r) => !r.companionOf).length,
      changed: list.filter((r) => r.changed && !r.companionOf).length,
      companions: list.filter((r) => r.changed && r.companionOf).length,
      manual: list.reduce((n, r) => n + r.manual.length, 0),
      errors: list.filter((r) => r.error).length,
      pending: list.reduce((n, r) => n + r.pending.length, 0),
      notForThisApi: list.reduce((n, r) => n + r.notForThisApi.length, 0),
      skipped: skipped.length,
      ignored: ignored.size,
      seconds: (performance.now() - started) / 1000,
    },
  };
}
