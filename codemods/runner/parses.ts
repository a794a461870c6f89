/**
 * The parses a run holds: the module graph from one parse of every script, the trees the shared
 * pass reads, and the parses a later segment of the chain reuses.
 */
import { getHeapStatistics } from 'node:v8';
import { parseSource, parseUnlinked, SCRIPT_EXTENSIONS, type ts } from '../lib/parse.js';
import { Project, scanModule, type ModuleFacts } from '../lib/project.js';
import { bindsHiddenNamesIn, scriptOf, type Script } from '../lib/script.js';
import { rememberTextWants } from '../script-steps.js';
import type { ScriptStep, Transform } from '../types.js';
import type { FileReport } from './types.js';

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

const isScript = (file: string) => SCRIPT_EXTENSIONS.some((e) => file.endsWith(e));

export interface Parses {
  trees: Map<string, Script>;
  /** Scripts no step has work in, read without holding their trees: they come out as they went in. */
  quiet: Set<string>;
  /** Scripts past the memory budget: parsed again when a pass reaches them, then let go. */
  unheld: Set<string>;
  /** The last text of each script that parsed: the final check skips a text found here. */
  verified: Map<string, string>;
  /** Parses every script for a segment's steps; answers the module graph, set on the held scripts. */
  parseAll(segment: readonly Transform[], keep: boolean): Project;
  /** Drops the kept parses of files a segment changed (or failed): their old trees can go now. */
  forgetChanged(): void;
}

/** The parses of one run over `files` (a pooled run holds no trees: its workers parse). */
export function runParses(files: readonly string[], texts: ReadonlyMap<string, string>, reports: ReadonlyMap<string, FileReport>, pooled: boolean): Parses {
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
  const parseAll = (segment: readonly Transform[], keep: boolean): Project => {
    trees.clear();
    quiet.clear();
    unheld.clear();
    moduleFacts.length = 0;
    // A step without a tree-level test (a text transform) may want anything. Mentioning ergraph
    // is not enough: a step edits only files it wants (`stepWants`), and the ergraph names a text
    // test cannot see are the hidden ones, checked below. (Holding every file that imports
    // ergraph kept the v5-to-v6 segment of an upgrade parsing, linking and holding every entity
    // module it then left alone: 2,000 generated files, 0.86x the CPU time without them.)
    // Each step's answer, asked in order up to the first step that wants the text: a held script
    // keeps them, so the shared pass (`stepWants`) does not read its text for them again.
    const wanted = (text: string): { wanted: boolean; answers: Map<ScriptStep, boolean> } => {
      const answers = new Map<ScriptStep, boolean>();
      for (const t of segment) {
        if (!t.script) return { wanted: true, answers };
        const wants = t.script.wants(text);
        answers.set(t.script, wants);
        if (wants) return { wanted: true, answers };
      }
      return { wanted: false, answers };
    };
    const unwanted: { file: string; text: string; facts: ModuleFacts; answers: Map<ScriptStep, boolean> }[] = [];
    let held = 0;
    const hold = (file: string, text: string, facts: ModuleFacts, sf: ts.SourceFile, answers: Map<ScriptStep, boolean>) => {
      if (pooled) return;
      held += text.length;
      if (held > heldSourceBudget) {
        unheld.add(file);
        if (keep) parsed.set(file, { text, facts });
        return;
      }
      if (keep) parsed.set(file, { text, facts, sf });
      const script = scriptOf(sf);
      rememberTextWants(script, answers);
      trees.set(file, script);
    };
    for (const file of files) {
      if (!isScript(file) || reports.get(file)!.error) continue;
      const text = texts.get(file)!;
      try {
        const kept = parsed.get(file);
        const entry = kept?.text === text ? kept : undefined;
        const asked = wanted(text);
        if (!asked.wanted) {
          // No parent links or index for a tree only its top-level statements are read from.
          const facts = entry?.facts ?? scanModule(parseUnlinked(text, file));
          verified.set(file, text);
          if (keep) parsed.set(file, { text, facts });
          unwanted.push({ file, text, facts, answers: asked.answers });
          moduleFacts.push(facts);
          continue;
        }
        const sf = entry?.sf ?? parseSource(text, file);
        verified.set(file, text);
        const facts = entry?.facts ?? scanModule(sf);
        moduleFacts.push(facts);
        hold(file, text, facts, sf, asked.answers);
      } catch (error) {
        reports.get(file)!.error = (error as Error).message;
      }
    }
    if (!keep) parsed.clear();
    const project = new Project(moduleFacts);
    for (const { file, text, facts, answers } of unwanted) {
      // Parsed again in the rare case: a name its text never spells, through a barrel.
      if (!bindsHiddenNamesIn(facts, text, project)) quiet.add(file);
      else if (!pooled) hold(file, text, facts, parseSource(text, file), answers);
    }
    for (const script of trees.values()) script.project = project;
    return project;
  };

  const forgetChanged = () => {
    for (const [file, entry] of parsed) if (texts.get(file) !== entry.text || reports.get(file)!.error) parsed.delete(file);
  };
  return { trees, quiet, unheld, verified, parseAll, forgetChanged };
}
