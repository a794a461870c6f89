/**
 * Collects what one `apply` call does to one file — text edits, places left for a human, notes —
 * and turns them into a `TransformResult`. Manual places get a marker comment line above them
 * unless the same marker is already there, which keeps a second run byte-identical.
 */
import { applyEdits, type Edit } from '../../compat/v6-form/edits.js';
import { lineColumn, ts } from './parse.js';
import { styleEdits } from './style.js';
import type { ManualItem, TransformResult } from './result.js';

export const TODO_PREFIX = '// TODO(ergraph-migrate): ';

export interface FileChanges {
  readonly sf: ts.SourceFile;
  readonly source: string;
  readonly edits: Edit[];
  readonly notes: string[];
  /** The transform adding edits now: manual items are tagged with it when steps share one pass. */
  step?: string;
  replace(node: ts.Node | { start: number; end: number }, text: string): void;
  insert(pos: number, text: string): void;
  manual(node: ts.Node, reason: string): void;
  note(node: ts.Node, message: string): void;
  result(): TransformResult;
}

interface Pending {
  pos: number;
  reason: string;
}

/** Edits of two steps that claim the same text: the runner then runs the steps one after another. */
export class OverlapError extends Error {
  override name = 'OverlapError';
}

export function lineStartOf(source: string, pos: number): number {
  return source.lastIndexOf('\n', pos - 1) + 1;
}

/** The marker lines directly above the line starting at `lineStart`. */
export function markersAbove(source: string, lineStart: number): Set<string> {
  const found = new Set<string>();
  let end = lineStart - 1;
  while (end > 0) {
    const start = lineStartOf(source, end);
    const line = source.slice(start, end).replace(/\r$/, '').trim();
    if (!line.startsWith(TODO_PREFIX)) break;
    found.add(line.slice(TODO_PREFIX.length));
    end = start - 1;
  }
  return found;
}

/** Text where a `//` line would not be a comment: inside template literals and JSX. */
function isVerbatim(node: ts.Node): boolean {
  return (
    ts.isTemplateExpression(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isJsxElement(node) ||
    ts.isJsxFragment(node)
  );
}

/**
 * A line start where a marker comment is a comment: if `lineStart` falls inside a template
 * literal or JSX, the line of the outermost such construct around it.
 */
export function markerLine(sf: ts.SourceFile, lineStart: number): number {
  // `pos` (before the trivia) is cheap and never after `getStart`: most nodes are ruled out without it.
  const holds = (node: ts.Node) => node.pos < lineStart && node.end > lineStart && node.getStart(sf) < lineStart;
  // Siblings never overlap, so one path leads down from the file; a list (a file's statements, an
  // array's elements) is searched by halves, not walked: one walk per marker over a file of many
  // documents made its markers quadratic.
  let node: ts.Node | undefined = holds(sf) ? sf : undefined;
  while (node && !isVerbatim(node)) {
    let next: ts.Node | undefined;
    ts.forEachChild(
      node,
      (child) => (holds(child) ? (next = child) : undefined),
      (list) => {
        const child = list[lastStartingBefore(list, lineStart)];
        return child && holds(child) ? (next = child) : undefined;
      },
    );
    node = next;
  }
  return node ? lineStartOf(sf.text, node.getStart(sf)) : lineStart;
}

/** The index of the last of `ranges` (in text order) whose `pos` is before `offset`; -1 if none. */
function lastStartingBefore(ranges: readonly { pos: number }[], offset: number): number {
  let lo = -1;
  let hi = ranges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ranges[mid]!.pos < offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A line's indentation, read in place (`lastIndex` at the line's start): no copy of the rest of the file. */
const INDENT = /[ \t]*/y;

/**
 * `(offset) => the first of edits (in the order given) that replaces text on both sides of
 * offset`, answered from the edits sorted once: a search of every edit per marker was quadratic.
 */
function coveringEdit(edits: readonly Edit[]): (offset: number) => Edit | undefined {
  const byStart = edits.map((edit, index) => ({ pos: edit.start, edit, index })).sort((a, b) => a.pos - b.pos);
  // The furthest end among the edits up to each one: the search back stops where no earlier edit reaches.
  const reach: number[] = [];
  for (const [i, { edit }] of byStart.entries()) reach.push(Math.max(edit.end, i > 0 ? reach[i - 1]! : -Infinity));
  return (offset) => {
    let first: (typeof byStart)[number] | undefined;
    for (let i = lastStartingBefore(byStart, offset); i >= 0 && reach[i]! > offset; i--) {
      const e = byStart[i]!;
      if (e.edit.end > offset && (!first || e.index < first.index)) first = e;
    }
    return first?.edit;
  };
}

export function fileChanges(sf: ts.SourceFile): FileChanges {
  const source = sf.text;
  const edits: Edit[] = [];
  const notes: string[] = [];
  const manualItems: ManualItem[] = [];
  // Which (line, column, reason) are listed already: a search of the list per item was quadratic.
  const listed = new Set<string>();
  const pending: Pending[] = [];
  const at = (node: ts.Node) => lineColumn(sf, node.getStart(sf));

  return {
    sf,
    source,
    edits,
    notes,
    step: undefined,
    replace(node, text) {
      const start = 'kind' in node ? node.getStart(sf) : node.start;
      const end = 'kind' in node ? node.getEnd() : node.end;
      // Fields copied one by one: a spread of the ranges callers pass (of many shapes) took a
      // slow generic path, a few percent of a codemod run.
      if (source.slice(start, end) !== text) edits.push({ start, end, text });
    },
    insert(pos, text) {
      edits.push({ start: pos, end: pos, text });
    },
    manual(node, reason) {
      const { line, column } = at(node);
      const key = `${line}:${column}:${reason}`;
      if (!listed.has(key)) {
        listed.add(key);
        manualItems.push(this.step ? { line, column, reason, transform: this.step } : { line, column, reason });
        pending.push({ pos: node.getStart(sf), reason });
      }
    },
    note(node, message) {
      const { line } = at(node);
      // Joined, not concatenated: a note built with `+` is a tree of its pieces until something
      // reads it whole, ~500 bytes a note where the text is ~150; a generated file has one per document.
      notes.push([this.step ? `${this.step}: ` : '', sf.fileName, ':', line, ': ', message].join(''));
    },
    result() {
      const markerEdits: Edit[] = [];
      const placed = new Map<number, Set<string>>();
      const covering = pending.length > 0 ? coveringEdit(edits) : undefined;
      const eol = source.includes('\r\n') ? '\r\n' : '\n';
      for (const { pos, reason } of pending) {
        let lineStart = markerLine(sf, lineStartOf(source, pos));
        // A marker cannot go inside text another edit replaces; put it above that edit instead.
        const cover = covering!(lineStart);
        if (cover) lineStart = lineStartOf(source, cover.start);
        const existing = placed.get(lineStart) ?? markersAbove(source, lineStart);
        placed.set(lineStart, existing);
        if (existing.has(reason)) continue;
        existing.add(reason);
        INDENT.lastIndex = lineStart;
        const indent = INDENT.exec(source)?.[0] ?? '';
        markerEdits.push({ start: lineStart, end: lineStart, text: `${indent}${TODO_PREFIX}${reason}${eol}` });
      }
      let output: string;
      try {
        // Every step's new code in the file's quote and semicolon style, in one place.
        output = applyEdits(source, [...markerEdits, ...styleEdits(sf, edits)]);
      } catch (error) {
        throw new OverlapError((error as Error).message);
      }
      manualItems.sort((a, b) => a.line - b.line || a.column - b.column);
      return { output: output === source ? source : output, manual: manualItems, notes };
    },
  };
}
