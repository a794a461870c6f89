/**
 * The codemod resolves every flat name of the hand-written table (test/support/flat-names.ts) to
 * its entity and method, on the corpus schema and on a schema of the rule's edges: a bug in the
 * naming it shares with compat (compat/naming.ts) fails here as well as in the compat tests.
 */
import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildFlatIndex } from 'ergraph/compat';
import { rewriteDocument } from '../../codemods/v5-to-v6/index.js';
import { CORPUS_TABLE, RULE_TABLE, type FlatName } from '../support/flat-names.js';
import { createV6Handler } from '../compat/helpers.js';

/** A schema with a group per entity of `rows`, each method an Int field. */
function schemaOf(rows: readonly FlatName[]) {
  const groups = new Map<string, Set<string>>();
  for (const [entity, method] of rows) groups.set(entity, (groups.get(entity) ?? new Set()).add(method));
  return buildSchema(
    [...groups].map(([e, ms]) => `type ${e}Query { ${[...ms].map((m) => `${m}: Int`).join(' ')} }`).join('\n') +
      `\ntype Query { ${[...groups.keys()].map((e) => `${e}: ${e}Query!`).join(' ')} }`,
  );
}

const unique = (rows: readonly FlatName[]) => rows.filter(([, , flat]) => rows.filter((r) => r[2] === flat).length === 1);

describe('the codemod reads flat names as the table says', () => {
  const corpus = createV6Handler().schema;
  const corpusIndex = buildFlatIndex(corpus);
  const queries = CORPUS_TABLE.filter(([entity, method]) => corpus.getType(`${entity}Query`) && (corpus.getType(`${entity}Query`) as { getFields(): Record<string, unknown> }).getFields()[method]);

  it.each(queries)('corpus: %s.%s from %s', (entity, method, flat) => {
    const text = `{ ${flat} }`;
    const { moves, problems } = rewriteDocument(parse(text), text, corpus, corpusIndex);
    expect(problems).toEqual([]);
    expect(moves.map((m) => [m.target.entity, m.target.method])).toEqual([[entity, method]]);
  });

  const edges = schemaOf(RULE_TABLE);
  const edgesIndex = buildFlatIndex(edges);
  it.each(unique(RULE_TABLE))('rule: %s.%s from %s', (entity, method, flat) => {
    const text = `{ ${flat} }`;
    const { moves, problems } = rewriteDocument(parse(text), text, edges, edgesIndex);
    expect(problems).toEqual([]);
    expect(moves.map((m) => [m.target.entity, m.target.method])).toEqual([[entity, method]]);
  });
});
