/**
 * The flat-name oracle of the compat ≡ codemod agreement (issue 12.5): a table written by hand
 * from DESIGN.md section 9 — lowerFirst(Entity) + upperFirst(camel(method)), camel splitting on
 * `_`, keeping the first piece, title-casing the rest (a letter after a digit upper), empty pieces
 * vanishing — checked against what both sides use (`buildFlatIndex` for compat, the codemod's
 * rewrite). A wrong mapping in `compat/naming.ts` would pass the agreement test on both sides; it
 * cannot pass this one.
 */
import { describe, expect, it } from 'vitest';
import { buildSchema, parse } from 'graphql';
import { buildFlatIndex, buildFlatSchema } from 'ergraph/compat';
import { rewriteDocument } from '../../codemods/v5-to-v6/index.js';

/** [entity, method (the v6 field), v5 flat name] — by hand, not computed. */
const TABLE: [string, string, string][] = [
  // DESIGN.md §9 examples
  ['User', 'get_all', 'userGetAll'],
  ['User', 'getAll', 'userGetAll'],
  ['TaskItem', 'byId', 'taskItemById'],
  ['HTTPRequest', 'get_by_id', 'hTTPRequestGetById'],
  ['User', 'get_by_ID', 'userGetById'],
  ['User', 'list_items_2fa', 'userListItems2Fa'],
  // the rule's edges
  ['Order', 'find__by_x', 'orderFindByX'],
  ['Order', 'find_by_x_', 'orderFindByX'],
  ['Order', 'keepCamel_THEN_snake', 'orderKeepCamelThenSnake'],
  ['Order', 'a_1_b', 'orderA1B'],
  ['Order', 'find_by_x2y_ZZ', 'orderFindByX2YZz'],
  ['Order', 'list', 'orderList'],
  ['A', 'x', 'aX'],
  ['URL', 'parse_v2', 'uRLParseV2'],
];

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
