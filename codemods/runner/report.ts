/** Rendering a run: unified diffs for `--dry-run`, the summary line, JSON and Markdown reports. */
import { createTwoFilesPatch } from 'diff';
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

export function unifiedDiffs(report: MigrationReport): string {
  return report.files
    .filter((f) => f.changed)
    .map((f) => createTwoFilesPatch(`a/${f.file}`, `b/${f.file}`, f.before, f.after, undefined, undefined, { context: 3 }))
    .join('');
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

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function toMarkdown(report: MigrationReport): string {
  const { files, changed, manual, errors } = report.summary;
  const out = [
    '# ergraph-migrate report',
    '',
    `Transforms: ${report.transforms.map((t) => `\`${t}\``).join(' → ')}${report.dryRun ? ' (dry run: nothing written)' : ''}`,
    '',
    '| files | changed | manual | errors |',
    '|---:|---:|---:|---:|',
    `| ${files} | ${changed} | ${manual} | ${errors} |`,
  ];
  const manualRows = report.files.flatMap((f) => f.manual.map((m) => `| \`${f.file}:${m.line}:${m.column}\` | ${m.transform} | ${cell(m.reason)} |`));
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
  if (report.schemaSource) out.splice(3, 0, `v6 schema: ${report.schemaSource}`, '');
  const pendingRows = report.files.flatMap((f) => f.pending.map((m) => `| \`${f.file}:${m.line}:${m.column}\` | ${cell(m.reason)} |`));
  if (pendingRows.length) out.push('', '## Pending (no v6 schema)', '', '| where | next step |', '|---|---|', ...pendingRows);
  const foreignRows = report.files.flatMap((f) => f.notForThisApi.map((m) => `- \`${f.file}:${m.line}:${m.column}\``));
  if (foreignRows.length) out.push('', '## Not for this API (left alone)', '', ...foreignRows);
  const skippedRows = report.skipped.map((s) => `- \`${s.file}\`: ${s.reason}`);
  if (skippedRows.length) out.push('', '## Skipped', '', ...skippedRows);
  const errorRows = report.files.filter((f) => f.error).map((f) => `- \`${f.file}\`: ${f.error} (left unchanged)`);
  if (errorRows.length) out.push('', '## Errors', '', ...errorRows);
  const notes = report.files.flatMap((f) => f.notes.map((n) => `- ${n}`));
  if (notes.length) out.push('', '## Notes', '', ...notes);
  const changedRows = report.files.filter((f) => f.changed).map((f) => `- \`${f.file}\` (${f.transforms.join(', ')})`);
  if (changedRows.length) out.push('', report.dryRun ? '## Files that would change' : '## Changed files', '', ...changedRows);
  return `${out.join('\n')}\n`;
}
