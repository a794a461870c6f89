/**
 * The flat-name oracle of the compat ≡ codemod agreement (issue 12.5): the hand-written table of
 * test/support/flat-names.ts checked against what both sides use (`buildFlatIndex` for compat, the
 * codemod's rewrite). A wrong mapping in `compat/naming.ts` would pass a comparison of the two
 * sides; it cannot pass this one.
 */
import { describe, expect, it } from 'vitest';
import { buildSchema, parse } from 'graphql';
import { buildFlatIndex, buildFlatSchema } from 'ergraph/compat';
import { rewriteDocument } from '../../codemods/v5-to-v6/index.js';
import { RULE_TABLE } from '../support/flat-names.js';

/** The hand-written rows of the rule's edges (test/support/flat-names.ts). */
const TABLE: [string, string, string][] = RULE_TABLE.map(([e, m, f]) => [e, m, f]);

describe('v5 flat names, from the hand-written table', () => {
  const groups = new Map<string, string[]>();
  for (const [entity, method] of TABLE) groups.set(entity, [...new Set([...(groups.get(entity) ?? []), method])]);
  const sdl =
    [...groups].map(([entity, methods]) => `type ${entity}Query { ${methods.map((m) => `${m}: Int`).join(' ')} }`).join('\n') +
    `\ntype Query { ${[...groups.keys()].map((e) => `${e}: ${e}Query!`).join(' ')} }`;
  const schema = buildSchema(sdl);
  const index = buildFlatIndex(schema);

  it.each(TABLE)('%s.%s is %s for compat', (entity, method, flat) => {
    expect(index.query.get(flat)?.some((t) => t.entity === entity && t.method === method)).toBe(true);
  });

  it('compat serves exactly the table names as root fields (and refuses the clashing ones)', () => {
    expect(() => buildFlatSchema(schema)).toThrow(/userGetAll ← User\.get_all, User\.getAll; orderFindByX ← Order\.find__by_x, Order\.find_by_x_/);
    const rows = TABLE.filter(([, , flat]) => TABLE.filter((r) => r[2] === flat).length === 1);
    const byEntity = new Map<string, string[]>();
    for (const [entity, method] of rows) byEntity.set(entity, [...(byEntity.get(entity) ?? []), method]);
    const clean = buildSchema(
      [...byEntity].map(([e, ms]) => `type ${e}Query { ${ms.map((m) => `${m}: Int`).join(' ')} }`).join('\n') +
        `\ntype Query { ${[...byEntity.keys()].map((e) => `${e}: ${e}Query!`).join(' ')} }`,
    );
    const served = Object.keys(buildFlatSchema(clean).schema.getQueryType()!.getFields()).sort();
    expect(served).toEqual(rows.map(([, , flat]) => flat).sort());
  });

  it.each(TABLE.filter(([, , flat]) => TABLE.filter((r) => r[2] === flat).length === 1))('the codemod rewrites %s.%s from %s', (entity, method, flat) => {
    const text = `{ ${flat} }`;
    const { moves, problems } = rewriteDocument(parse(text), text, schema, index);
    expect(problems).toEqual([]);
    expect(moves.map((m) => [m.target.entity, m.target.method])).toEqual([[entity, method]]);
  });
});
