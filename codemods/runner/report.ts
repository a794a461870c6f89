/** Rendering a run: unified diffs for `--dry-run`, the summary line, JSON and Markdown reports. */
import { createTwoFilesPatch, formatPatch } from 'diff';
import type { FileReport, MigrationReport } from './run.js';

const FORMAT_NAMES = { apollo: 'Apollo persisted query list', relay: 'Relay persisted queries map' } as const;

/** One line per persisted-query manifest: what was rewritten and where the old ids went. */
export function manifestLine(f: FileReport, dryRun: boolean): string | undefined {
  const m = f.manifest;
  if (!m) return undefined;
  const left = m.operations - m.rewritten;
  const ids = m.format === 'apollo' ? 'new ids (sha256 of the new body)' : 'ids kept';
  const mapping = m.mapping
    ? `; old id → new document mapping ${dryRun ? 'would be written to' : 'in'} ${m.mapping} (serve old clients with createCompatHandler(handler, { persisted: { mapping: '${m.mapping}' } }))`
    : '';
  return `${f.file} (${FORMAT_NAMES[m.format]}): ${m.rewritten} of ${m.operations} operations rewritten, ${ids}${left > 0 ? `, ${left} left as they are (listed below when they need work)` : ''}${mapping}`;
}

/**
 * How long the exact diff of one file may take. Myers' algorithm is O(lines x changes): a
 * generated file of 10,000 documents, each on a line the migration changed, took 12 s, and one
 * of 150,000 would have taken the better part of an hour.
 */
export const DIFF_TIMEOUT_MS = 1000;

/**
 * A file's diff as one hunk from its first changed line to its last, with three lines of context:
 * a patch that applies as the exact one does, found in linear time, shown when the exact diff
 * would take longer than `DIFF_TIMEOUT_MS`.
 */
function oneHunk(file: string, before: string, after: string): string {
  const split = (text: string) => (text === '' ? [] : text.split(/(?<=\n)/));
  const a = split(before);
  const b = split(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - 3);
  const to = Math.min(tail, 3);
  const line = (mark: string) => (text: string) => mark + (text.endsWith('\n') ? text.slice(0, -1) : `${text}\n\\ No newline at end of file`);
  const lines = [
    ...a.slice(from, head).map(line(' ')),
    ...a.slice(head, a.length - tail).map(line('-')),
    ...b.slice(head, b.length - tail).map(line('+')),
    ...a.slice(a.length - tail, a.length - tail + to).map(line(' ')),
  ];
  const hunk = { oldStart: from + 1, oldLines: a.length - tail + to - from, newStart: from + 1, newLines: b.length - tail + to - from, lines };
  return formatPatch({ oldFileName: `a/${file}`, newFileName: `b/${file}`, oldHeader: undefined, newHeader: undefined, hunks: [hunk] });
}

/** One file's unified diff: the exact one, or one hunk when that takes longer than `timeout` ms. */
export function fileDiff(file: string, before: string, after: string, timeout = DIFF_TIMEOUT_MS): string {
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3, timeout }) ?? oneHunk(file, before, after);
}

export function unifiedDiffs(report: MigrationReport): string {
  return report.files
    .filter((f) => f.changed)
    .map((f) => fileDiff(f.file, f.before, f.after))
    .join('');
}

/** A failed file's line: its path and the error (the path once, with the error's line and column when it has them). */
export function errorLine(f: Pick<FileReport, 'file' | 'error'>): string {
  const error = f.error ?? '';
  return error.startsWith(`${f.file}:`) ? error : `${f.file}: ${error}`;
}

export function summaryLine(report: MigrationReport): string {
  const { files, changed, companions, manual, errors, seconds, pending, notForThisApi, skipped, ignored } = report.summary;
  const verb = report.dryRun ? 'would change' : 'changed';
  const extra = [
    companions > 0 ? `${companions} mapping file${companions === 1 ? '' : 's'} ${report.dryRun ? 'to write' : 'written'}` : '',
    pending > 0 ? `${pending} pending (no v6 schema)` : '',
    notForThisApi > 0 ? `${notForThisApi} not for this API` : '',
    skipped > 0 ? `${skipped} skipped` : '',
    ignored > 0 ? `${ignored} git-ignored` : '',
  ].filter(Boolean);
  return `${report.transforms.join(' → ') || 'no transforms'}: ${files} files scanned, ${changed} ${verb}, ${manual} manual, ${errors} errors${extra.map((e) => `, ${e}`).join('')} (${seconds.toFixed(2)}s)`;
}

/** The JSON report: everything but the file texts, which the diff or the tree itself holds. */
export function toJson(report: MigrationReport): string {
  const files = report.files.map(({ before: _b, after: _a, ...rest }) => rest);
  return `${JSON.stringify({ tool: 'ergraph-migrate', ...report, files }, null, 2)}\n`;
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1b': '\\e' };

/**
 * A name or a reason as one line of text (issue 45.6): every control character — newline, CR,
 * tab, ESC, the rest of C0, DEL, C1 — and the Unicode line and paragraph separators written as an
 * escape. A file named `a\n| x |` or holding terminal escapes then stays inside its own line and
 * cell of the Markdown report and the printed lines, and cannot forge others; the JSON report has
 * JSON's own escapes, and jsdiff quotes such a name in a diff header as git does (`"a/x\ny"`).
 */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A reason in a Markdown table cell: one line (its line breaks as spaces), its pipes escaped. */
function cell(s: string): string {
  return nameCell(s.replace(/\n/g, ' '));
}

/** A file name in a Markdown table cell: escaped as `printable` does, its pipes escaped. */
function nameCell(s: string): string {
  return printable(s).replace(/\|/g, '\\|');
}

export function toMarkdown(report: MigrationReport): string {
  const { files, changed, manual, errors } = report.summary;
  const out = [
    '# ergraph-migrate report',
    '',
    `Transforms: ${report.transforms.map((t) => `\`${t}\``).join(' → ')}${report.dryRun ? ' (dry run: nothing written)' : ''}`,
    '',
    ...(report.stopped
      ? [`**Stopped by ${report.stopped}**: only the files listed as changed were written; those not reached are listed as skipped, as they were.`, '']
      : []),
    '| files | changed | manual | errors |',
    '|---:|---:|---:|---:|',
    `| ${files} | ${changed} | ${manual} | ${errors} |`,
  ];
  const p = printable;
  const manualRows = report.files.flatMap((f) => f.manual.map((m) => `| \`${nameCell(f.file)}:${m.line}:${m.column}\` | ${m.transform} | ${cell(m.reason)} |`));
  const manifestRows = report.files.map((f) => manifestLine(f, report.dryRun)).filter((l) => l !== undefined).map((l) => `- ${cell(l)}`);
  if (manifestRows.length) out.push('', '## Persisted-query manifests', '', ...manifestRows);
  if (manualRows.length)
    out.push(
      '',
      '## Manual work',
      '',
      'Each place is also marked `// TODO(ergraph-migrate): <reason>` in the file (`#` in GraphQL files; JSON manifests have no comments, so their operations are listed here only).',
      '',
      '| where | transform | reason |',
      '|---|---|---|',
      ...manualRows,
    );
  if (report.schemaSource) out.splice(3, 0, `v6 schema: ${printable(report.schemaSource)}`, '');
  const pendingRows = report.files.flatMap((f) => f.pending.map((m) => `| \`${nameCell(f.file)}:${m.line}:${m.column}\` | ${cell(m.reason)} |`));
  if (pendingRows.length) out.push('', '## Pending (no v6 schema)', '', '| where | next step |', '|---|---|', ...pendingRows);
  const foreignRows = report.files.flatMap((f) => f.notForThisApi.map((m) => `- \`${p(f.file)}:${m.line}:${m.column}\``));
  if (foreignRows.length) out.push('', '## Not for this API (left alone)', '', ...foreignRows);
  const skippedRows = report.skipped.map((s) => `- \`${p(s.file)}\`: ${p(s.reason)}`);
  if (skippedRows.length) out.push('', '## Skipped', '', ...skippedRows);
  const errorRows = report.files.filter((f) => f.error).map((f) => `- \`${p(f.file)}\`: ${p(f.error!)} (left unchanged)`);
  if (errorRows.length) out.push('', '## Errors', '', ...errorRows);
  const notes = report.files.flatMap((f) => f.notes.map((n) => `- ${p(n)}`));
  if (notes.length) out.push('', '## Notes', '', ...notes);
  const changedRows = report.files.filter((f) => f.changed).map((f) => `- \`${p(f.file)}\` (${f.transforms.join(', ')})`);
  if (changedRows.length) out.push('', report.dryRun ? '## Files that would change' : '## Changed files', '', ...changedRows);
  return `${out.join('\n')}\n`;
}
