/**
 * Transforms describe their changes as replacements of text ranges of the input, so everything
 * they do not touch (comments, blank lines, quote style, trailing commas) stays byte-identical.
 */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping edits. Insertions at the same position keep the order they were
 * given in. Overlap means two rewrites claimed the same text: that is a bug in a transform,
 * so it throws rather than silently producing a mix.
 */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return source;
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index)
    .map(({ edit }) => edit);
  // Joined from parts rather than appended: `+=` builds a rope that V8 flattens on the first
  // character read, and the output check (a full parse) then read every character through it.
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of ordered) {
    if (edit.start < cursor) {
      throw new Error(`overlapping edits at ${edit.start}: ${JSON.stringify(source.slice(edit.start, edit.end))}`);
    }
    parts.push(source.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  parts.push(source.slice(cursor));
  return parts.join('');
}

/** True when `pos` lies inside one of the replaced (non-empty) ranges. */
export function coveredBy(edits: readonly Edit[], pos: number): boolean {
  return edits.some((e) => e.end > e.start && pos >= e.start && pos < e.end);
}
