/**
 * A step over a parsed script (`ScriptStep`) run alone, or made a whole `Transform` that parses
 * text itself. The runner instead hands one script to every step of a chain (`runner/run.ts`).
 */
import { fileChanges } from './lib/changes.js';
import { slot } from './lib/nodes.js';
import { fixImports, type ImportFixes } from './lib/import-fixes.js';
import { EMPTY_PROJECT, Project } from './lib/project.js';
import { bindsHiddenNames, parseScript, type Script } from './lib/script.js';
import type { ScriptStep, Transform, TransformOptions, TransformResult } from './types.js';

export function projectOf(options: TransformOptions): Project {
  return options.project instanceof Project ? options.project : EMPTY_PROJECT;
}

export function importFixes(step: ScriptStep<never> | ScriptStep<unknown>, script: Script): ImportFixes {
  const fixes = step.imports;
  return typeof fixes === 'function' ? fixes(script) : (fixes ?? {});
}

const unchanged = (source: string): TransformResult => ({ output: source, manual: [], notes: [] });

/**
 * Whether a step may have work in a script: its text test, or names that test cannot see. Asked
 * once per step and script: the runner's shared pass asks for each step in its prepare, scan and
 * apply, and each text test reads the whole text (2-3% of a run).
 */
const wantedBy = slot<Script, Map<ScriptStep<never> | ScriptStep<unknown>, boolean>>('ergraph.wanted-by');
/**
 * Text tests already asked of a script's own text (the runner asks them before it parses, to
 * choose the trees it holds): `stepWants` does not read the text again for those steps. Asking
 * them again for the held scripts was 2-3% of a run over 2,121 files of real code.
 */
const textWantsBy = slot<Script, ReadonlyMap<ScriptStep<never> | ScriptStep<unknown>, boolean>>('ergraph.text-wants');
export function rememberTextWants(script: Script, answers: ReadonlyMap<ScriptStep<never> | ScriptStep<unknown>, boolean>): void {
  textWantsBy.set(script, answers);
}

export function stepWants(step: ScriptStep<never> | ScriptStep<unknown>, script: Script): boolean {
  let known = wantedBy.get(script);
  const found = known?.get(step);
  if (found !== undefined) return found;
  const wants = (textWantsBy.get(script)?.get(step) ?? step.wants(script.source)) || bindsHiddenNames(script);
  if (!known) wantedBy.set(script, (known = new Map()));
  known.set(step, wants);
  return wants;
}

/** The step with its text test for a run over `texts` (`wantsInRun`), or the step itself. */
export function forRun(step: Transform, texts: Iterable<string>): Transform {
  const narrow = step.script?.wantsInRun;
  return narrow ? { ...step, script: { ...step.script!, wants: narrow(texts) } } : step;
}

/** `touches` of one facts list, asked once however many files it is applied to. */
const touchedCache = new WeakMap<readonly unknown[], ReadonlySet<string>>();
function touchedBy<F>(step: ScriptStep<F>, facts: readonly F[], options: TransformOptions): ReadonlySet<string> {
  if (!step.touches || facts.length === 0) return new Set();
  let found = touchedCache.get(facts);
  if (!found) touchedCache.set(facts, (found = step.touches(facts, options)));
  return found;
}

/** One step alone over a parsed script (no scan pass over a tree: the file's own facts still count). */
export function applyStep<F>(step: ScriptStep<F>, script: Script, facts: readonly F[], options: TransformOptions): TransformResult {
  if (!stepWants(step, script) && !touchedBy(step, facts, options).has(script.sf.fileName)) return unchanged(script.source);
  const changes = fileChanges(script.sf);
  const known = facts.length > 0 || !step.scan ? facts : step.scan(script, options);
  step.apply(script, { facts: known, options, changes });
  fixImports(changes, script.imports, importFixes(step, script));
  return { ...changes.result(), ...step.finish?.(script) };
}

/** Only a relative import or require can bring in a barrel's alias: without one the text test decides alone. */
const RELATIVE_MODULE = /(?:from|require\s*\(|import\s*\()\s*['"]\./;

/** A transform over scripts: `scan`/`apply` on text parse and delegate to the shared-tree step. */
export function scriptTransform<F>(
  meta: Omit<Transform<F>, 'scan' | 'apply' | 'script'>,
  step: ScriptStep<F>,
): Transform<F> {
  return {
    ...meta,
    script: step,
    scan: step.scan
      ? (source, file, options = {}) => {
          if (!step.wants(source) && !RELATIVE_MODULE.test(source)) return [];
          const script = parseScript(source, file, projectOf(options));
          return stepWants(step, script) ? step.scan!(script, options) : [];
        }
      : undefined,
    apply(source, { file, facts, options }) {
      // Parsed even when the step has nothing to do here: a file that does not parse is reported by every transform.
      return applyStep(step, parseScript(source, file, projectOf(options)), facts, options);
    },
  };
}
