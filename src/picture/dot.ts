/** The picture in Graphviz DOT (`ergraph er --format dot | dot -Tsvg`): HTML-table nodes, labelled edges. */
import type { ErPicture } from './model.js';

const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function table(title: string, rows: readonly string[], color: string): string {
  const cells = rows.map((r) => `<TR><TD ALIGN="LEFT">${html(r)}</TD></TR>`).join('');
  return `<<TABLE BORDER="1" CELLBORDER="0" CELLSPACING="0" CELLPADDING="4"><TR><TD BGCOLOR="${color}"><B>${html(title)}</B></TD></TR>${cells}</TABLE>>`;
}

export function erDot(picture: ErPicture): string {
  const lines = ['digraph er {', '  rankdir=LR;', '  node [shape=plain, fontname="Helvetica"];', '  edge [fontname="Helvetica", fontsize=10];'];
  for (const e of picture.entities) {
    const rows = [
      ...e.fields.map((f) => `${f.name}: ${f.type}`),
      ...[...e.queries, ...e.mutations].map((op) => `${op.kind} ${op.name}: ${op.returns}`),
    ];
    lines.push(`  ${quoted(e.name)} [label=${table(e.name, rows, '#dbe8ff')}];`);
  }
  for (const r of picture.relationships) {
    lines.push(`  ${quoted(r.from)} -> ${quoted(r.to)} [label=${quoted(`${r.name} (fk ${r.fk}) ${r.cardinality}`)}];`);
  }
  for (const m of picture.members) {
    lines.push(`  subgraph ${quoted(`cluster_${m.name}`)} {`, `    label=${quoted(`member ${m.name}`)}; style=dashed;`);
    for (const e of m.entities) lines.push(`    ${quoted(`${m.name}.${e}`)} [label=${table(`${m.name}.${e}`, [], '#eeeeee')}];`);
    lines.push('  }');
    for (const r of m.relationships) {
      lines.push(`  ${quoted(r.from)} -> ${quoted(`${m.name}.${r.to}`)} [style=dashed, label=${quoted(`${r.name} (fk ${r.fk} = ${r.joinKey}) ${r.cardinality}`)}];`);
    }
  }
  for (const s of picture.services) {
    lines.push(`  ${quoted(s.name)} [label=${table(s.name, s.operations.map((op) => `${op.kind} ${op.name}: ${op.returns}`), '#ffe9c7')}];`);
    for (const entity of new Set(s.operations.flatMap((op) => op.reads))) {
      lines.push(`  ${quoted(s.name)} -> ${quoted(entity)} [style=dotted, label="reads"];`);
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
