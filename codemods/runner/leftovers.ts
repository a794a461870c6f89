/**
 * The run's last pass: nothing old is left silently. Every old-API site the version detector
 * would cite (`evidence.ts`) that the steps left in a script, and that no step reported, becomes
 * manual work: a `TODO(ergraph-migrate)` marker above it and an item in the report with the
 * reason. This is what catches what no step can prove safe to rewrite: a marker read through a
 * computed key, an old property read off an untyped object, an old name behind the user's own
 * helper. A site already under the same marker (a rerun) is reported again, not marked twice.
 */
import { diffLines } from 'diff';
import { evidenceIn } from '../evidence.js';
import { needsWholeRun, wholeRunNote } from '../lib/alone.js';
import { lineStartOf, markerLine, markersAbove, TODO_PREFIX } from '../lib/changes.js';
import { applyEdits, type Edit } from '../../compat/v6-form/edits.js';
import { parseSource, SCRIPT_EXTENSIONS, ts } from '../lib/parse.js';
import { compareVersions, transforms } from '../registry.js';
import type { Transform } from '../types.js';
import type { FileReport } from './types.js';

/** Output line (1-based) → the input line it came from; a line the run wrote maps to the input line at its place. */
function lineMap(before: string, after: string): (line: number) => number {
  if (before === after) return (line) => line;
  const map: number[] = [0];
  let input = 1;
  // Lines written in place of removed ones (a rewritten line, with a marker above it) map to the
  // first line they replace: that is the line a step's report names.
  let replaced: number | undefined;
  for (const part of diffLines(before, after, { timeout: 1000 }) ?? [{ count: 0, added: false, removed: false }]) {
    const count = part.count ?? 0;
    if (part.removed) {
      replaced = input;
      input += count;
      continue;
    }
    if (part.added) for (let i = 0; i < count; i++) map.push(replaced ?? input);
    else for (let i = 0; i < count; i++) map.push(input++);
    replaced = undefined;
  }
  return (line) => map[line] ?? line;
}

/** The step of the chain whose work a site of `version` is: the first that lands past it. */
function stepFor(steps: readonly Transform[], version: string): string {
  const all = [...transforms].sort((a, b) => compareVersions(a.to, b.to));
  return (all.find((t) => compareVersions(t.to, version) > 0) ?? steps[steps.length - 1]!).name;
}

/** `alone`: one file migrated alone (jscodeshift); what it left may come through a file it cannot see. */
/**
 * The names a script imports from other files of its project (a relative path, or an `@/`/`~/`
 * alias): bindings and namespaces whose ergraph origin a file migrated alone cannot see.
 */
function projectImports(sf: ReturnType<typeof parseSource>): Set<string> {
  const names = new Set<string>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !/^(\.{1,2}\/|[@~]\/)/.test(st.moduleSpecifier.text)) continue;
    const clause = st.importClause;
    if (clause?.name) names.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    else if (bindings) for (const el of bindings.elements) names.add(el.name.text);
  }
  return names;
}

/** The name at `offset`, and the namespace before it (`lib` of `lib.LoaderDepend`). */
function namesAt(text: string, offset: number): string[] {
  const name = /^[A-Za-z_$][\w$]*/.exec(text.slice(offset))?.[0];
  const before = /([A-Za-z_$][\w$]*)\s*\.\s*$/.exec(text.slice(Math.max(0, offset - 80), offset))?.[1];
  return [name, before].filter((n): n is string => !!n);
}

export function reportLeftovers(reports: ReadonlyMap<string, FileReport>, texts: Map<string, string>, steps: readonly Transform[], alone = false): void {
  if (steps.length === 0) return;
  const target = steps.reduce((v, t) => (compareVersions(t.to, v) > 0 ? t.to : v), steps[0]!.to);
  for (const [abs, report] of reports) {
    if (report.error || report.companionOf || !SCRIPT_EXTENSIONS.some((e) => abs.endsWith(e))) continue;
    const text = texts.get(abs)!;
    const sites = evidenceIn(text).filter((s) => compareVersions(s.shape.version, target) < 0);
    if (sites.length === 0) continue;
    const toInput = lineMap(report.before, text);
    let sf;
    try {
      sf = parseSource(text, abs);
    } catch {
      continue; // the output check reports a file that does not parse
    }
    // Alone (one step runs), an old name may come through a file of the project it cannot see: a
    // name imported from one, or a site the step itself marked as needing the rest of the project.
    const imported = alone ? projectImports(sf) : new Set<string>();
    const stepNeedsOthers = alone && report.manual.some((m) => needsWholeRun(m.reason));
    const edits: Edit[] = [];
    const placed = new Map<number, Set<string>>();
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const lineStarts = sf.getLineStarts();
    const by = new Set<string>();
    // A line a step already reported carries its reason; several leftovers on one line are each listed.
    const stepLines = new Set(report.manual.map((m) => m.line));
    for (const site of sites) {
      if (site.inImport && sites.some((s) => s.shape === site.shape && !s.inImport)) continue;
      const line = toInput(site.line);
      if (stepLines.has(line)) continue;
      const transform = stepFor(steps, site.shape.version);
      const throughOthers = stepNeedsOthers || namesAt(text, lineStarts[site.line - 1]! + site.column - 1).some((n) => imported.has(n));
      const reason = `${site.shape.what} left as it is: ${site.shape.why}${throughOthers ? `; ${wholeRunNote(steps[0]!.name)}` : ''}`;
      report.manual.push({ line, column: site.column, reason, transform });
      const start = markerLine(sf, lineStartOf(text, lineStarts[site.line - 1]! + site.column - 1));
      const existing = placed.get(start) ?? markersAbove(text, start);
      placed.set(start, existing);
      // Already under a marker (a rerun, or a step's own reason): reported again, not marked twice.
      if (site.reported || existing.has(reason)) continue;
      existing.add(reason);
      by.add(transform);
      const indent = /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
      edits.push({ start, end: start, text: `${indent}${TODO_PREFIX}${reason}${eol}` });
    }
    report.manual.sort((a, b) => a.line - b.line || a.column - b.column);
    if (edits.length === 0) continue;
    texts.set(abs, applyEdits(text, edits));
    for (const name of by) if (!report.transforms.includes(name)) report.transforms.push(name);
  }
}
