/** `verify`'s verdicts as the console, JSON and Markdown say them, in the migration report's style. */
import type { SkippedEntry } from '../runner/files.js';

/** Why an operation was not run, as the summary counts it. */
export type NotRunCause = 'mutation' | 'subscription' | 'variables' | 'unresolved' | 'manual' | 'unpaired' | 'parse' | 'refused' | 'redirected' | 'oversized' | 'failed';

export type Verdict =
  | { verdict: 'same' }
  | { verdict: 'differs'; path: string; v5: unknown; v6: unknown }
  | { verdict: 'not run'; cause: NotRunCause; reason: string };

/** How the summary names each cause, and what runs them. */
const CAUSES: Record<NotRunCause, [one: string, many: string]> = {
  mutation: ['mutation (run with --mutations --target-env <target>)', 'mutations (run with --mutations --target-env <target>)'],
  subscription: ['subscription (verify runs queries and mutations)', 'subscriptions (verify runs queries and mutations)'],
  variables: ['needs variables (--variables <file.json>)', 'need variables (--variables <file.json>)'],
  unresolved: ['has interpolations verify cannot resolve', 'have interpolations verify cannot resolve'],
  manual: ['is left for manual work by v5-to-v6', 'are left for manual work by v5-to-v6'],
  unpaired: ['is not paired with the base commit', 'are not paired with the base commit'],
  parse: ['does not parse', 'do not parse'],
  refused: ['was refused by the endpoint (no data)', 'were refused by the endpoint (no data)'],
  redirected: ['was redirected (verify follows no redirect: give --url the address it points to)', 'were redirected (verify follows no redirect: give --url the address they point to)'],
  oversized: ['got an answer larger than --max-response-bytes', 'got answers larger than --max-response-bytes'],
  failed: ['got no GraphQL answer', 'got no GraphQL answer'],
};

export type DocumentVerdict = Verdict & {
  file: string;
  line: number;
  operation: string | null;
  kind?: string;
  persistedId?: string;
};

export interface VerifyReport {
  target: string;
  summary: { same: number; differs: number; notRun: number; seconds: number };
  documents: DocumentVerdict[];
  skipped: SkippedEntry[];
}

export function summarize(target: string, documents: DocumentVerdict[], skipped: SkippedEntry[], seconds: number): VerifyReport {
  const count = (v: Verdict['verdict']) => documents.filter((d) => d.verdict === v).length;
  return { target, summary: { same: count('same'), differs: count('differs'), notRun: count('not run'), seconds }, documents, skipped };
}

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value).slice(0, 200));
const nameOf = (d: DocumentVerdict) => `${d.operation ?? '(anonymous)'}${d.persistedId ? ` (persisted id ${d.persistedId})` : ''}`;

export function verdictLine(d: DocumentVerdict): string {
  const where = `${d.file}:${d.line} ${nameOf(d)}`;
  if (d.verdict === 'same') return `same: ${where}`;
  if (d.verdict === 'differs') return `differs: ${where} at ${d.path} (v5: ${show(d.v5)}, v6: ${show(d.v6)})`;
  return `not run: ${where}: ${d.reason}`;
}

export function summaryLine(r: VerifyReport): string {
  const { same, differs, notRun, seconds } = r.summary;
  return `verify against ${r.target}: ${r.documents.length} operations, ${same} same, ${differs} differ, ${notRun} not run (${seconds.toFixed(2)}s)`;
}

/** Why the run proves less than it should, by cause (`not proven: 2 of 5 operations not run: 1 mutation (…), …`); undefined when it proves all. */
export function unprovenLine(r: VerifyReport): string | undefined {
  if (r.documents.length === 0) return 'not proven: no operation was run';
  if (r.summary.notRun === 0) return undefined;
  const counts = new Map<NotRunCause, number>();
  for (const d of r.documents) if (d.verdict === 'not run') counts.set(d.cause, (counts.get(d.cause) ?? 0) + 1);
  const parts = [...counts].map(([cause, n]) => `${n} ${CAUSES[cause][n === 1 ? 0 : 1]}`);
  return `not proven: ${r.summary.notRun} of ${r.documents.length} operations not run: ${parts.join(', ')}`;
}

export function toJson(r: VerifyReport): string {
  const unproven = unprovenLine(r);
  return `${JSON.stringify({ tool: 'ergraph-migrate verify', ...r, summary: { ...r.summary, proven: !unproven } }, null, 2)}\n`;
}

// `<` too: reasons name placeholders (`<file.json>`) that Markdown renderers would take for HTML tags.
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');
/** Inside backticks `<` is shown as written. */
const code = (s: string) => `\`${s.replace(/\|/g, '\\|').replace(/`/g, "'").replace(/\n/g, ' ')}\``;

export function toMarkdown(r: VerifyReport): string {
  const { same, differs, notRun } = r.summary;
  const rows = (verdict: Verdict['verdict'], line: (d: DocumentVerdict) => string) => r.documents.filter((d) => d.verdict === verdict).map(line);
  const out = [
    '# ergraph-migrate verify report',
    '',
    `Target: ${r.target}`,
    '',
    '| operations | same | differ | not run |',
    '|---:|---:|---:|---:|',
    `| ${r.documents.length} | ${same} | ${differs} | ${notRun} |`,
  ];
  const unproven = unprovenLine(r);
  if (unproven) out.push('', `**${cell(unproven)}**`);
  const differing = rows('differs', (d) => d.verdict === 'differs' ? `| ${code(`${d.file}:${d.line}`)} | ${cell(nameOf(d))} | ${code(d.path)} | ${code(show(d.v5))} | ${code(show(d.v6))} |` : '');
  if (differing.length) out.push('', '## Differs', '', '| where | operation | first differing path | v5 | v6 |', '|---|---|---|---|---|', ...differing);
  const skippedRuns = rows('not run', (d) => (d.verdict === 'not run' ? `| \`${d.file}:${d.line}\` | ${cell(nameOf(d))} | ${cell(d.reason)} |` : ''));
  if (skippedRuns.length) out.push('', '## Not run', '', '| where | operation | why |', '|---|---|---|', ...skippedRuns);
  const sameRows = rows('same', (d) => `- \`${d.file}:${d.line}\` ${nameOf(d)}`);
  if (sameRows.length) out.push('', '## Same', '', ...sameRows);
  if (r.skipped.length) out.push('', '## Skipped files', '', ...r.skipped.map((s) => `- \`${s.file}\`: ${s.reason}`));
  return `${out.join('\n')}\n`;
}
