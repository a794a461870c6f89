/**
 * The picture as a Mermaid `erDiagram`, for READMEs and wikis that render Mermaid. Mermaid's
 * attribute types are plain words, so `[Tag!]!` is written `Tag[]` and the GraphQL type goes in
 * the attribute's comment.
 */
import type { Cardinality, ErPicture } from './model.js';

/** Mermaid entity names are words: `reviews.Review` becomes `reviews__Review`. */
const id = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '__');
const word = (type: string) => type.replace(/[!\]]/g, '').replace(/^\[(.*)$/, '$1[]');
const comment = (text: string) => `"${text.replace(/"/g, "'")}"`;
const link = (cardinality: Cardinality, remote = false) =>
  (cardinality === '1:N' ? '||--o{' : '}o--||').replace('--', remote ? '..' : '--');

export function erMermaid(picture: ErPicture): string {
  const lines = ['erDiagram'];
  // FK marks a field that points at another entity: the key of a N:1 edge (a 1:N edge's key is the owner's own).
  const manyToOne = [...picture.relationships, ...picture.members.flatMap((m) => m.relationships)].filter((r) => r.cardinality === 'N:1');
  const fks = new Set(manyToOne.map((r) => `${r.from}.${r.fk}`));
  for (const entity of picture.entities) {
    lines.push(`  ${id(entity.name)} {`);
    for (const f of entity.fields) lines.push(`    ${word(f.type)} ${f.name}${fks.has(`${entity.name}.${f.name}`) ? ' FK' : ''} ${comment(f.type)}`);
    for (const op of [...entity.queries, ...entity.mutations]) lines.push(`    ${op.kind} ${op.name} ${comment(`returns ${op.returns}`)}`);
    lines.push('  }');
  }
  for (const r of picture.relationships) lines.push(`  ${id(r.from)} ${link(r.cardinality)} ${id(r.to)} : ${comment(`${r.name} (fk ${r.fk}) ${r.cardinality}`)}`);
  for (const member of picture.members) {
    for (const e of member.entities) lines.push(`  ${id(`${member.name}.${e}`)} {`, `    service ${member.name}`, '  }');
    for (const r of member.relationships) {
      lines.push(`  ${id(r.from)} ${link(r.cardinality, true)} ${id(`${member.name}.${r.to}`)} : ${comment(`${r.name} (fk ${r.fk} = ${r.joinKey}) ${r.cardinality}`)}`);
    }
  }
  for (const service of picture.services) {
    lines.push(`  ${id(service.name)} {`);
    for (const op of service.operations) lines.push(`    ${op.kind} ${op.name} ${comment(`returns ${op.returns}`)}`);
    lines.push('  }');
    const read = [...new Set(service.operations.flatMap((op) => op.reads))];
    for (const entity of read) lines.push(`  ${id(service.name)} }o..o{ ${id(entity)} : ${comment('reads')}`);
  }
  return `${lines.join('\n')}\n`;
}
