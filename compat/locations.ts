/**
 * Error locations from the v6 engine point into the rewritten document; v5 clients expect them
 * to point into the document they sent. The rewrite reuses the client's AST nodes, so printing,
 * re-parsing and walking both trees side by side pairs every reused node with its original
 * position.
 */
import { getLocation, parse, type ASTNode, type DocumentNode, type Source, type SourceLocation } from 'graphql';

type AnyNode = ASTNode & Record<string, unknown>;

const isNode = (value: unknown): value is AnyNode =>
  typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';

function pair(built: AnyNode, reparsed: AnyNode, out: Map<number, number>): void {
  if (built.loc && reparsed.loc) out.set(reparsed.loc.start, built.loc.start);
  for (const key of Object.keys(built)) {
    if (key === 'loc') continue;
    const a = built[key];
    const b = reparsed[key];
    if (Array.isArray(a) && Array.isArray(b)) {
      const n = Math.min(a.length, b.length);
      for (let i = 0; i < n; i++) if (isNode(a[i]) && isNode(b[i])) pair(a[i], b[i], out);
    } else if (isNode(a) && isNode(b)) {
      pair(a, b, out);
    }
  }
}

export interface LocationMap {
  /** The original position of a location in the printed document, or null for synthetic nodes. */
  map(location: SourceLocation): SourceLocation | null;
}

export function buildLocationMap(built: DocumentNode, printed: string, original: Source): LocationMap {
  const offsets = new Map<number, number>();
  pair(built as AnyNode, parse(printed) as AnyNode, offsets);
  const lineStarts = [0];
  for (let i = 0; i < printed.length; i++) if (printed.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return {
    map({ line, column }) {
      const start = lineStarts[line - 1];
      if (start === undefined) return null;
      const originalOffset = offsets.get(start + column - 1);
      return originalOffset === undefined ? null : getLocation(original, originalOffset);
    },
  };
}
