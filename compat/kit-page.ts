/**
 * A client's migration kit as a section of the operator's report page (`<path>/usage?client=web`):
 * each operation with its v6 text, the paths that move, the shadow verdict with its date and
 * number of runs, and the v6 id of a persisted one. Server-rendered like the rest of the page: no
 * script, every text from data escaped.
 */
import { VERDICT, type KitOperation, type MigrationKit } from './kit.js';
import { escapeHtml as esc } from '../src/graphql/page.js';

/** The kit as the route shows it: without the store's name or error text. */
export type KitView = Omit<MigrationKit, 'store'> & { store: { ok: boolean } };

export function publicKit(kit: MigrationKit): KitView {
  return { ...kit, store: { ok: kit.store.ok } };
}

function verdictOf(op: KitOperation): string {
  const s = op.shadow;
  const runs = `${s.runs} run${s.runs === 1 ? '' : 's'}, last ${s.lastRunAt ? s.lastRunAt.slice(0, 10) : 'never'}`;
  if (s.verdict === 'same') return `same (${runs})`;
  if (s.verdict === 'differs') return `differs at <code>${esc(s.path ?? '?')}</code> (${s.differs} of ${runs})`;
  return esc(VERDICT[s.verdict]);
}

function operationHtml(op: KitOperation): string {
  const title = `${op.kind} ${op.operationName ?? '(anonymous)'}`;
  const persisted = op.persisted
    ? `<p>persisted id <code>${esc(op.persisted.id)}</code> → ${op.persisted.v6Id ? `v6 id <code>${esc(op.persisted.v6Id)}</code>` : '—'} (${esc(op.persisted.note)})</p>`
    : '';
  const v6 =
    'problem' in op.v6
      ? `<p class="problem">${esc(op.v6.problem)}</p>`
      : `<pre class="v6">${esc(op.v6.text)}</pre>${
          op.v6.moves.length > 0
            ? `<table class="moves"><thead><tr><th>v5 reads</th><th>v6 reads</th></tr></thead><tbody>${op.v6.moves.map((m) => `<tr><td><code>${esc(m.from)}</code></td><td><code>${esc(m.to)}</code></td></tr>`).join('')}</tbody></table>`
            : '<p>no response path moves</p>'
        }`;
  return `<article class="operation ${op.shadow.verdict.replace(/ /g, '-')}" data-verdict="${esc(op.shadow.verdict)}"><h3><code>${esc(title)}</code> · ${op.count} requests, last ${esc(op.lastSeen.slice(0, 10))} · ${verdictOf(op)}</h3>${persisted}<details><summary>v5 text</summary><pre class="v5">${esc(op.v5)}</pre></details>${v6}</article>`;
}

export function kitSection(kit: KitView): string {
  const s = kit.summary;
  const summary = `${s.operations} operations: ${s.same} same, ${s.differs} differ, ${s['not run']} not run yet, ${s['not shadowed']} mutations, ${s['no v6 form']} need manual work`;
  const body = !kit.store.ok
    ? '<p class="problem">The operation catalog could not be read (the server log says why)</p>'
    : kit.operations.length === 0
      ? '<p>No operation of this client is in the catalog.</p>'
      : kit.operations.map(operationHtml).join('\n');
  return `<section id="kit" data-client="${esc(kit.client)}"><h2>Migration kit: ${esc(kit.client)}</h2><p class="meta">${summary} · <a href="?client=${encodeURIComponent(kit.client)}&amp;format=json">JSON</a> · <code>ergraph compat kit --client ${esc(JSON.stringify(kit.client))}</code> writes it as Markdown</p>
${body}</section>`;
}
