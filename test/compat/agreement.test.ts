/**
 * The agreement test: for every v5 document, what the compat layer answers equals what the v6
 * engine answers to the codemod's rewrite of that document, once the moved paths the codemod
 * reports are followed back. The compat layer and the codemod are written separately, so each
 * checks the other.
 */
import { describe, expect, it } from 'vitest';
import { buildSchema, Kind, parse, type GraphQLFormattedError } from 'graphql';
import { buildFlatIndex, createCompatHandler, type ExecutionResponse, type V6Handler } from 'ergraph/compat';
import { rewriteDocument, transform, type MovedPath } from '../../codemods/v5-to-v6/index.js';
import { HAND_WRITTEN, generateCorpus, type CorpusCase } from './corpus.js';
import { createErgraphHandler } from './ergraph-domain.js';
import { createDomain, createV6Handler, type Domain } from './helpers.js';
import { expectedFlatName, RULE_TABLE } from '../support/flat-names.js';

/** v6 answers introspection about the v6 schema: only the compat layer can answer it for v5. */
const comparable = (c: CorpusCase) => !/__schema|__type\b/.test(c.query);

function selectedOperation(c: CorpusCase): string | null {
  const ops = parse(c.query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const op = c.operationName ? ops.find((o) => o.name?.value === c.operationName) : ops[0];
  return op?.name?.value ?? null;
}

/** The codemod's moves for the operation the case runs, plus those of every fragment. */
function movesFor(c: CorpusCase, v6: V6Handler): MovedPath[] {
  const op = selectedOperation(c);
  const { moves } = rewriteDocument(parse(c.query), c.query, v6.schema, buildFlatIndex(v6.schema));
  return moves.filter((m) => ('fragment' in m.where ? true : m.where.operation === op));
}

/** A v6 response read back through the moves: what a migrated client sees at its old paths. */
function throughMoves(response: ExecutionResponse, moves: readonly MovedPath[]) {
  const groups = new Set(moves.map((m) => m.to[0]));
  const back = (path: readonly (string | number)[]) => {
    const move = moves.find((m) => m.to[0] === path[0] && m.to[1] === path[1]);
    return move ? [...move.from, ...path.slice(2)] : path;
  };
  let data: Record<string, unknown> | null = null;
  if (response.data) {
    data = {};
    for (const [key, value] of Object.entries(response.data)) if (!groups.has(key)) data[key] = value;
    for (const m of moves) {
      const group = response.data[m.to[0]!] as Record<string, unknown> | undefined;
      if (group && Object.hasOwn(group, m.to[1]!)) data[m.from[0]!] = group[m.to[1]!];
    }
  }
  return { data, errors: errorShape(response.errors, back) };
}

function errorShape(errors: readonly GraphQLFormattedError[] | null, path = (p: readonly (string | number)[]) => p) {
  // Masked errors (issue 13.4) carry a fresh id per request: compared without it.
  return (errors ?? []).map((e) => ({ message: e.message.replace(/error id \w+/, 'error id …'), path: e.path && path(e.path) })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const READERS = "the code reading this operation's result must move its reads: ";

/** The hand work the pass leaves: exactly the .graphql reader markers, when root keys move. */
function onlyReaderMarkers(manual: readonly { reason: string }[], c: CorpusCase, v6: V6Handler) {
  const readers = manual.filter((m) => m.reason.startsWith(READERS));
  expect(manual.filter((m) => !readers.includes(m)), c.query).toEqual([]);
  expect(readers.length > 0, c.query).toBe(movesFor(c, v6).length > 0);
}

async function agree(c: CorpusCase) {
  const opts = { variables: c.variables, operationName: c.operationName };
  const compatDomain: Domain = createDomain();
  const compat = createCompatHandler(createV6Handler(compatDomain));
  const fromCompat = await compat.execute(c.query, opts);

  const v6Domain: Domain = createDomain();
  const v6 = createV6Handler(v6Domain);
  const migrated = transform.apply(c.query, { file: 'case.graphql', facts: [], options: { schema: v6.schema } });
  // A .graphql file's readers are code the pass cannot see: each operation whose root keys move
  // gets one marker naming the moves (which throughMoves applies below); nothing else needs a hand.
  onlyReaderMarkers(migrated.manual, c, v6);
  const again = transform.apply(migrated.output, { file: 'case.graphql', facts: [], options: { schema: v6.schema } });
  expect(again.output, 'idempotent').toBe(migrated.output);
  const fromV6 = throughMoves(await v6.execute(migrated.output, opts), movesFor(c, v6));

  expect(fromV6.data, `${c.query}\n→\n${migrated.output}`).toEqual(fromCompat.data);
  expect(fromV6.errors, c.query).toEqual(errorShape(fromCompat.errors));
  expect(v6Domain.log, c.query).toEqual(compatDomain.log);
  return { fromCompat, migrated: migrated.output };
}


/**
 * Both sides resolve flat names with the same code (compat/naming.ts, compat/flat-index.ts), so
 * agreeing with each other says nothing about the names themselves: they are judged here against
 * the hand-written table first.
 */
describe('the flat names of the corpus schemas are the hand-written ones', () => {
  // The corpus's entities are one word each: the rule's edges (compound names, acronyms) too.
  const edges = () => {
    const groups = new Map<string, Set<string>>();
    for (const [entity, method] of RULE_TABLE) groups.set(entity, (groups.get(entity) ?? new Set()).add(method));
    return buildSchema(
      [...groups].map(([e, ms]) => `type ${e}Query { ${[...ms].map((m) => `${m}: Int`).join(' ')} }`).join('\n') +
        `\ntype Query { ${[...groups.keys()].map((e) => `${e}: ${e}Query!`).join(' ')} }`,
    );
  };
  const schemas = { 'the v5-era domain': () => createV6Handler().schema, 'the ergraph domain': () => createErgraphHandler().handler.schema, "the rule's edges": edges };
  it.each(Object.entries(schemas))('%s', (_name, schemaOf) => {
    const index = buildFlatIndex(schemaOf());
    const served: string[] = [];
    for (const kind of ['query', 'mutation'] as const) {
      for (const [flat, targets] of index[kind]) {
        for (const t of targets) served.push(`${t.entity}.${t.method} -> ${flat} (table: ${expectedFlatName(t.entity, t.method) ?? 'missing: add it'})`);
      }
    }
    expect(served.length).toBeGreaterThan(5);
    expect(served).toEqual(served.map((line) => line.replace(/-> \S+ \(table: (.*)\)$/, '-> $1 (table: $1)')));
  });
});

describe('compat layer and codemod agree', () => {
  for (const c of HAND_WRITTEN.filter(comparable)) {
    it(c.name, async () => {
      await agree(c);
    });
  }

  it('on generated documents with aliases, fragments, variables and nesting', async () => {
    const corpus = generateCorpus(200, 7);
    let withErrors = 0;
    for (const c of corpus) {
      const { fromCompat } = await agree(c);
      if (fromCompat.errors) withErrors++;
    }
    // The corpus exercises error paths, not only happy ones.
    expect(withErrors).toBeGreaterThan(10);
  });

  it('moves each root key exactly one level down, under its entity', async () => {
    const c: CorpusCase = { name: 'paths', query: '{ me: userById(id: 1) { name } taskGetAll(limit: 1) { id } }' };
    const { migrated } = await agree(c);
    expect(migrated).toBe(
      "# TODO(ergraph-migrate): the code reading this operation's result must move its reads: data.me → data.User.me, data.taskGetAll → data.Task.taskGetAll\n" +
        '{ User { me: byId(id: 1) { name } } Task { taskGetAll: getAll(limit: 1) { id } } }',
    );
    const v6 = createV6Handler();
    expect(movesFor(c, v6).map((m) => [m.from.join('.'), m.to.join('.')])).toEqual([
      ['me', 'User.me'],
      ['taskGetAll', 'Task.taskGetAll'],
    ]);
  });
});

/** Documents for the ergraph-declared domain (`ergraph-domain.ts`). */
const ERGRAPH_CASES: CorpusCase[] = [
  { name: 'relationships two levels down', query: '{ userGetAll(limit: 2) { id name tasks { title owner { name } } } }' },
  {
    name: 'aliases, variables and a fragment on Query',
    query: 'query Q($id: Int!) { a: userById(id: $id) { ...U } ...R } fragment R on Query { taskGetAll(limit: 2) { id owner { ...U } } userListItems2Fa } fragment U on User { id email }',
    variables: { id: 3 },
  },
  {
    name: '@skip/@include and inline fragments',
    query: 'query ($s: Boolean!) { ... @include(if: $s) { taskById(id: 1) { title } } userById(id: 2) @skip(if: $s) { name } ... on Query { __typename } }',
    variables: { s: true },
  },
  { name: 'a failing method next to working ones', query: '{ taskById(id: 1) { id } x: userBroken { id } }' },
  { name: 'a missing row', query: '{ taskById(id: 99) { id } userById(id: 1) { name } }' },
  {
    name: 'mutations in document order across entities',
    query: 'mutation { a: taskCreate(title: "one", ownerId: 1) { id } r: userRename(id: 1, name: "Z") { name } b: taskCreate(title: "two", ownerId: 2) { id owner { name } } }',
  },
  { name: 'several operations', query: 'query A { userListItems2Fa } query B { taskGetAll(limit: 1) { title } }', operationName: 'B' },
];

describe('compat layer and codemod agree on the real GraphQLHandler', () => {
  for (const c of ERGRAPH_CASES) {
    it(c.name, async () => {
      const opts = { variables: c.variables, operationName: c.operationName };
      const viaCompat = createErgraphHandler();
      const fromCompat = await createCompatHandler(viaCompat.handler).execute(c.query, opts);

      const direct = createErgraphHandler();
      const migrated = transform.apply(c.query, { file: 'case.graphql', facts: [], options: { schema: direct.handler.schema } });
      onlyReaderMarkers(migrated.manual, c, direct.handler);
      const fromV6 = throughMoves(await direct.handler.execute(migrated.output, opts), movesFor(c, direct.handler));

      expect(fromV6.data).toEqual(fromCompat.data);
      expect(fromV6.errors).toEqual(errorShape(fromCompat.errors));
      expect(direct.log).toEqual(viaCompat.log);
      expect(fromCompat.data === null || Object.keys(fromCompat.data).length > 0).toBe(true);
    });
  }

  it('maps an error from a real resolver back to the v5 path and location', async () => {
    const { handler } = createErgraphHandler();
    const response = await createCompatHandler(handler).execute('{\n  taskById(id: 1) { id }\n  x: userBroken { id }\n}');
    // The method's text stays in the server's log; the client gets an id (issue 13.4).
    expect(response).toEqual({
      data: null,
      errors: [
        {
          message: expect.stringMatching(/^Internal server error \(error id \w+\)$/),
          locations: [{ line: 3, column: 3 }],
          path: ['x'],
          extensions: { code: 'INTERNAL_SERVER_ERROR', errorId: expect.any(String) },
        },
      ],
    });
  });
});
