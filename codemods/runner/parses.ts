/**
 * The parses a run holds: the module graph from one parse of every script, the trees the shared
 * pass reads, and the parses a later segment of the chain reuses.
 */
import { getHeapStatistics } from 'node:v8';
import { linkAndIndex } from '../lib/nodes.js';
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

/** A kept unlinked tree made what `parseSource` returns. */
function linkedNow(sf: ts.SourceFile): ts.SourceFile {
  linkAndIndex(sf);
  return sf;
}

export interface Parses {
  trees: Map<string, Script>;
  /** Scripts no step has work in, read without holding their trees: they come out as they went in. */
  quiet: Set<string>;
  /** Scripts past the memory budget: parsed again when a pass reaches them, then let go. */
  unheld: Set<string>;
  /** The last text of each script that parsed: the final check skips a text found here. */
  verified: Map<string, string>;
  /**
   * Parses every script for a segment's steps; answers the module graph, set on the held scripts.
   * `later`: the steps of later segments that reuse these parses (none: nothing is kept).
   */
  parseAll(segment: readonly Transform[], later?: readonly Transform[]): Project;
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
  // A file a later segment's steps may want keeps its tree: linked when this segment held it,
  // else the unlinked tree its facts were read from, linked when that segment holds it (effect's
  // Array.ts and 30 more files, 2 MB of viem + effect that only v5-to-v6's text test wants, were
  // parsed a second time). `answers`: the later steps' text tests, asked once.
  const parsed = new Map<string, { text: string; facts: ModuleFacts; sf?: ts.SourceFile; linked?: boolean; answers?: Map<ScriptStep, boolean> }>();
  // The last text of each script that parsed: a later segment's parse of an earlier one's output
  // is that output's check already, so the final check skips a text found here (with the schema
  // looked up, every file an earlier step changed and v5-to-v6 left alone was parsed twice more).
  const verified = new Map<string, string>();
  const parseAll = (segment: readonly Transform[], later?: readonly Transform[]): Project => {
    const keep = later !== undefined;
    // A tree is kept for a later segment only if one of its steps may want the file: kept whole,
    // the trees this segment held (effect's Schema.ts among them) stayed alive through the next
    // segment's parse of every file. The facts are kept either way; a tree let go here is parsed
    // again if a later step turns out to want it (a name hidden behind a barrel).
    const laterWanted = (text: string) => {
      const answers = new Map<ScriptStep, boolean>();
      let any = false;
      for (const t of later!) {
        if (!t.script) return { any: true, answers };
        if (answers.has(t.script)) continue;
        const wants = t.script.wants(text);
        answers.set(t.script, wants);
        any ||= wants;
      }
      return { any, answers };
    };
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
    const wanted = (text: string, known: Map<ScriptStep, boolean> | undefined): { wanted: boolean; answers: Map<ScriptStep, boolean> } => {
      const answers = new Map<ScriptStep, boolean>();
      for (const t of segment) {
        if (!t.script) return { wanted: true, answers };
        // An earlier segment's answer for the same test of the same text (a step narrowed for
        // this run, `forRun`, is another test and asks again).
        const wants = known?.get(t.script) ?? t.script.wants(text);
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
      if (keep) {
        const next = laterWanted(text);
        parsed.set(file, next.any ? { text, facts, sf, linked: true, answers: next.answers } : { text, facts, answers: next.answers });
      }
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
        const asked = wanted(text, entry?.answers);
        if (!asked.wanted) {
          // No parent links or index for a tree only its top-level statements are read from.
          const unlinked = entry?.facts ? undefined : parseUnlinked(text, file);
          const facts = entry?.facts ?? scanModule(unlinked!);
          verified.set(file, text);
          if (keep) {
            const next = laterWanted(text);
            // Within the source budget, shared with the trees this segment holds.
            const tree = next.any && !pooled && held + text.length <= heldSourceBudget ? (entry?.sf ?? unlinked) : undefined;
            if (tree) held += text.length;
            parsed.set(file, tree ? { text, facts, sf: tree, linked: entry?.linked ?? false, answers: next.answers } : { text, facts, answers: next.answers });
          }
          unwanted.push({ file, text, facts, answers: asked.answers });
          moduleFacts.push(facts);
          continue;
        }
        const sf = entry?.sf ? (entry.linked ? entry.sf : linkedNow(entry.sf)) : parseSource(text, file);
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
