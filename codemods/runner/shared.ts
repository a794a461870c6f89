/**
 * The steps of a segment over one parse per script: every step scans the one tree of each file,
 * then adds its edits to one change set per file, applied at once. When two steps claim the same
 * text, that file falls back to running the steps one after another on text.
 */
import { applyFile, handles, scanFile } from '../apply.js';
import { append } from '../lib/append.js';
import { fileChanges, OverlapError, TODO_PREFIX } from '../lib/changes.js';
import { fixImports, type ImportFixes } from '../lib/import-fixes.js';
import { parseSource } from '../lib/parse.js';
import { scriptOf, type Script } from '../lib/script.js';
import { importFixes, projectOf, stepWants } from '../script-steps.js';
import type { Transform, TransformOptions, TransformResult } from '../types.js';
import type { Outcomes, StepOutcome } from './types.js';

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

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** Whether the result holds a marker line of `step` that the source did not. */
function addedMarker(result: TransformResult, source: string, step: string, last: string | undefined): boolean {
  if (result.output === source) return false;
  return result.manual.some((m) => (m.transform ?? last) === step && occurrences(result.output, `${TODO_PREFIX}${m.reason}`) > occurrences(source, `${TODO_PREFIX}${m.reason}`));
}

/** The steps over one shared parse per script; other files (GraphQL documents) through `apply`. */
export function runShared(
  steps: readonly Transform[],
  files: readonly string[],
  texts: Map<string, string>,
  options: TransformOptions,
  trees: Map<string, Script>,
  /** Scripts no step has work in, read without holding their trees: they come out as they went in. */
  quiet: ReadonlySet<string>,
  /** Scripts past the memory budget: parsed again when a pass reaches them, then let go. */
  unheld: ReadonlySet<string>,
  progress: () => void,
): Outcomes {
  // A file past the budget parsed without an error before, so it parses again.
  const scriptFor = (file: string, text: string): Script | undefined =>
    trees.get(file) ?? (unheld.has(file) || quiet.has(file) ? scriptOf(parseSource(text, file), projectOf(options)) : undefined);
  const outcomes: Outcomes = new Map();
  const facts = new Map<Transform, unknown[]>(steps.map((t) => [t, []]));
  const failed = new Map<string, Error>();
  // Prepare: a step's work over all the held trees at once (v5-to-v6 checks every rewritten document in one go).
  for (const step of steps) {
    const prepare = step.script?.prepare;
    if (!prepare) continue;
    const scripts: Script[] = [];
    for (const file of files) {
      const script = trees.get(file);
      if (script && handles(step, file) && stepWants(step.script!, script)) scripts.push(script);
    }
    try {
      prepare(scripts, options);
    } catch {
      // Work done ahead only: each file's scan and apply do it again, and fail for that file alone.
    }
  }
  // Scan: every step reads the one tree of each file.
  for (const file of files) {
    if (quiet.has(file)) continue;
    const text = texts.get(file)!;
    try {
      const script = scriptFor(file, text);
      for (const step of steps) {
        if (!handles(step, file)) continue;
        if (script && step.script) {
          if (step.script.scan && stepWants(step.script, script)) append(facts.get(step)!, step.script.scan(script, options));
        } else if (!script || !step.script) append(facts.get(step)!, scanFile(step, text, file, options));
      }
    } catch (error) {
      failed.set(file, error as Error);
    }
  }
  // Files another file's facts give work in (a function handed an operation's result), whatever their text.
  const touched = new Map<Transform, ReadonlySet<string>>();
  for (const step of steps) {
    try {
      const found = step.script?.touches?.(facts.get(step)!, options);
      if (found && found.size > 0) touched.set(step, found);
    } catch (error) {
      // Which files the others' facts reach is not known: none of this step's files is written on a guess.
      const why = new Error(`${step.name} could not tell which files other files' facts reach: ${(error as Error).message}`);
      for (const file of files) if (handles(step, file) && !failed.has(file)) failed.set(file, why);
    }
  }
  const isTouched = (step: Transform, file: string) => touched.get(step)?.has(file) ?? false;
  for (const file of files) {
    const text = texts.get(file)!;
    const mine = steps.filter((s) => handles(s, file));
    if (failed.has(file)) {
      outcomes.set(file, [{ transform: mine[0]?.name ?? '?', error: failed.get(file) }]);
      progress();
      continue;
    }
    if (quiet.has(file) && !mine.some((s) => isTouched(s, file))) {
      outcomes.set(file, [{ transform: mine[0]!.name, result: { output: text, manual: [], notes: [] } }]);
      progress();
      continue;
    }
    let script: Script | undefined;
    try {
      script = scriptFor(file, text);
    } catch (error) {
      outcomes.set(file, [{ transform: mine[0]!.name, error: error as Error }]);
      progress();
      continue;
    }
    if (script && mine.every((s) => s.script)) {
      try {
        const ch = fileChanges(script.sf);
        const active = mine.filter((s) => stepWants(s.script!, script) || isTouched(s, file));
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
        // A step whose only change is a marker above a line changed the file too (the pool, running steps one at a time, says so).
        for (const step of active) if (!edited.has(step.name) && addedMarker(result, script.source, step.name, last)) edited.add(step.name);
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
