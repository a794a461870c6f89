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
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    // `pos` (before the trivia) is cheap and never after `getStart`: most siblings are ruled out without it.
    if (node.pos < lineStart && node.end > lineStart && node.getStart(sf) < lineStart) {
      if (isVerbatim(node)) {
        found = node;
        return;
      }
      node.forEachChild(visit);
    }
  };
  visit(sf);
  return found ? lineStartOf(sf.text, found.getStart(sf)) : lineStart;
}

export function fileChanges(sf: ts.SourceFile): FileChanges {
  const source = sf.text;
  const edits: Edit[] = [];
  const notes: string[] = [];
  const manualItems: ManualItem[] = [];
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
      if (!manualItems.some((m) => m.line === line && m.column === column && m.reason === reason)) {
        manualItems.push(this.step ? { line, column, reason, transform: this.step } : { line, column, reason });
        pending.push({ pos: node.getStart(sf), reason });
      }
    },
    note(node, message) {
      const { line } = at(node);
      notes.push(`${this.step ? `${this.step}: ` : ''}${sf.fileName}:${line}: ${message}`);
    },
    result() {
      const markerEdits: Edit[] = [];
      const placed = new Map<number, Set<string>>();
      for (const { pos, reason } of pending) {
        let lineStart = markerLine(sf, lineStartOf(source, pos));
        // A marker cannot go inside text another edit replaces; put it above that edit instead.
        const covering = edits.find((e) => e.start < lineStart && e.end > lineStart);
        if (covering) lineStart = lineStartOf(source, covering.start);
        const existing = placed.get(lineStart) ?? markersAbove(source, lineStart);
        placed.set(lineStart, existing);
        if (existing.has(reason)) continue;
        existing.add(reason);
        const indent = /^[ \t]*/.exec(source.slice(lineStart))?.[0] ?? '';
        const eol = source.includes('\r\n') ? '\r\n' : '\n';
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
