/**
 * v5 documents the compat layer and the codemod must agree on: hand-written cases for every
 * construct a v5 client could send, plus seeded random documents mixing them.
 */

export interface CorpusCase {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export const HAND_WRITTEN: CorpusCase[] = [
  { name: 'plain field with args', query: '{ userGetAll(limit: 2) { id name } }' },
  { name: 'snake_case methods', query: '{ userListItems2Fa userGetById(id: 3) { name } }' },
  {
    name: 'aliases, including one named like an entity',
    query: '{ a: userGetAll(limit: 1) { id } b: userGetAll(limit: 2) { id name } User: taskById(id: 2) { title owner { name } } }',
  },
  {
    name: 'variables with defaults',
    query: 'query Q($id: Int!, $limit: Int = 1) { userById(id: $id) { id name } taskGetAll(limit: $limit) { id } }',
    variables: { id: 2 },
  },
  {
    name: 'enum variable',
    query: 'query ($s: Status) { taskGetAll(status: $s) { id status } }',
    variables: { s: 'OPEN' },
  },
  {
    name: 'fragment on Query spread in the operation',
    query: `query { ...Root taskById(id: 1) { id } }
      fragment Root on Query { userById(id: 1) { ...UserBits } taskGetAll { id } }
      fragment UserBits on User { id name tasks { title } }`,
  },
  {
    name: 'nested fragments on Query',
    query: `{ ...A } fragment A on Query { ...B userListItems2Fa } fragment B on Query { u: userById(id: 3) { email } }`,
  },
  {
    name: 'inline fragments at the root',
    query: '{ ... on Query { userGetAll(limit: 1) { id } } ... { taskById(id: 1) { id ... on Task { title } } } }',
  },
  {
    name: '@skip/@include on fields, inline fragments and spreads',
    query: `query ($s: Boolean!, $i: Boolean!) {
      userGetAll @skip(if: $s) { id }
      ... @include(if: $i) { taskGetAll(limit: 1) { id } }
      ...F @include(if: $s)
      x: userById(id: 1) @include(if: $i) { name }
    }
    fragment F on Query { userListItems2Fa }`,
    variables: { s: true, i: false },
  },
  {
    name: '@skip/@include, other values',
    query: `query ($s: Boolean!, $i: Boolean!) {
      userGetAll @skip(if: $s) { id }
      ... @include(if: $i) { taskGetAll(limit: 1) { id } ... @skip(if: $s) { t2: taskById(id: 2) { id } } }
      ...F @include(if: $s)
    }
    fragment F on Query { userListItems2Fa }`,
    variables: { s: false, i: true },
  },
  { name: '__typename at the root and below', query: '{ __typename userById(id: 1) { __typename id } t: __typename }' },
  {
    name: 'introspection of the root type',
    query: '{ __schema { queryType { name fields { name description args { name defaultValue type { name kind ofType { name kind } } } } } mutationType { name fields { name } } } }',
  },
  { name: 'a v6-only type does not exist in v5', query: '{ __type(name: "UserQuery") { name } q: __type(name: "Query") { fields { name } } }' },
  {
    name: 'introspection next to data, sharing a variable',
    query: 'query ($n: String!, $id: Int!) { __type(name: $n) { name kind } userById(id: $id) { name } }',
    variables: { n: 'User', id: 1 },
  },
  {
    name: 'several operations, the second selected',
    query: 'query A { userGetAll { id } } query B { taskGetAll(limit: 1) { title } } mutation C { userRename(id: 1, name: "x") { id } }',
    operationName: 'B',
  },
  { name: 'repeated key is merged', query: '{ userById(id: 1) { id } userById(id: 1) { name } ...on Query { userById(id: 1) { email } } }' },
  { name: 'error in a nullable field', query: '{ taskGetAll { id boom } }' },
  { name: 'error bubbling to a nullable root field', query: '{ a: taskById(id: 1) { id } b: userById(id: 2) { name strict } }' },
  { name: 'error bubbling to the root', query: '{ taskById(id: 1) { id } userGetAll { id strict } }' },
  { name: 'non-null root field failing', query: '{ userById(id: 1) { id } x: taskMustExist(id: 99) { id } }' },
  { name: 'error below a fragment on Query', query: '{ ...R } fragment R on Query { taskById(id: 2) { boom } }' },
  {
    name: 'mutations in document order across entities',
    query: `mutation {
      a: taskCreate(input: { title: "one", ownerId: 1 }) { id title }
      r: userRename(id: 1, name: "Zed") { name }
      b: taskCreate(input: { title: "two", ownerId: 2 }) { id owner { name } }
      c: taskComplete(id: 1) { status }
    }`,
  },
  {
    name: 'mutation fragments and variables',
    query: `mutation M($t: String!) { ...Ops taskComplete(id: 2) { id status } }
      fragment Ops on Mutation { taskCreate(input: { title: $t, ownerId: 3 }) { id title } userRename(id: 3, name: $t) { name } }`,
    variables: { t: 'frag' },
  },
  { name: 'failing mutation', query: 'mutation { taskComplete(id: 3) { id } taskFail { id } userRename(id: 2, name: "n") { id } }' },
  { name: 'mutation __typename', query: 'mutation { __typename r: userRename(id: 1, name: "q") { __typename name } }' },
];

/** Requests v5 refused; the compat layer must refuse them the same way. */
export const INVALID: CorpusCase[] = [
  { name: 'unknown field below a flat field', query: '{ userGetAll { nope } }' },
  { name: 'the v6 grouped form is not v5', query: '{ User { getAll { id } } }' },
  { name: 'syntax error', query: '{ userGetAll {' },
  { name: 'wrong variable type', query: 'query ($id: Int!) { userById(id: $id) { id } }', variables: { id: 'x' } },
  { name: 'missing variable', query: 'query ($id: Int!) {\n  a: userById(id: $id) { id }\n}' },
  { name: 'no operation name with two operations', query: 'query A { userListItems2Fa } query B { userListItems2Fa }' },
  { name: 'unknown operation name', query: 'query A { userListItems2Fa }', operationName: 'Z' },
  { name: 'unused fragment', query: '{ userListItems2Fa } fragment X on Query { userListItems2Fa }' },
];

/** Mulberry32: a tiny deterministic PRNG so generated cases are the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RootSpec {
  name: string;
  args: Array<{ name: string; values: readonly string[]; type: string }>;
  returns: 'User' | 'Task' | null;
}

const QUERY_FIELDS: RootSpec[] = [
  { name: 'userGetAll', args: [{ name: 'limit', values: ['1', '2', '3'], type: 'Int' }], returns: 'User' },
  { name: 'userById', args: [{ name: 'id', values: ['1', '2', '3', '4'], type: 'Int!' }], returns: 'User' },
  { name: 'userGetById', args: [{ name: 'id', values: ['1', '3'], type: 'Int!' }], returns: 'User' },
  { name: 'userListItems2Fa', args: [], returns: null },
  {
    name: 'taskGetAll',
    args: [
      { name: 'limit', values: ['1', '3'], type: 'Int' },
      { name: 'status', values: ['OPEN', 'DONE'], type: 'Status' },
    ],
    returns: 'Task',
  },
  { name: 'taskById', args: [{ name: 'id', values: ['1', '2', '3', '9'], type: 'Int!' }], returns: 'Task' },
];

const SUBFIELDS: Record<'User' | 'Task', string[]> = {
  User: ['id', 'name', 'email', '__typename', 'tasks { id title }', 'done: tasks(done: true) { id }', 'strict', '...UserBits', '... on User { name }'],
  Task: ['id', 'title', 'status', 'owner { id name }', 'owner { ...UserBits }', 'boom', '__typename', '... on Task { owner { email } }'],
};

/** Random valid v5 documents; `count` of them, reproducible from `seed`. */
export function generateCorpus(count: number, seed = 20260522): CorpusCase[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const cases: CorpusCase[] = [];
  for (let n = 0; n < count; n++) {
    const variables: Record<string, unknown> = {};
    const definitions: string[] = [];
    const rootFragment: string[] = [];
    const root: string[] = [];
    let usesUserBits = false;
    const fieldCount = 1 + Math.floor(random() * 4);
    for (let i = 0; i < fieldCount; i++) {
      const spec = pick(QUERY_FIELDS);
      const args = spec.args
        .filter((a) => a.type.endsWith('!') || random() < 0.5)
        .map((a) => {
          const value = pick(a.values);
          if (random() < 0.4) {
            const v = `v${n}_${i}_${a.name}`;
            definitions.push(`$${v}: ${a.type}`);
            variables[v] = a.type.startsWith('Int') ? Number(value) : value;
            return `${a.name}: $${v}`;
          }
          return `${a.name}: ${value}`;
        });
      let selection = '';
      if (spec.returns) {
        const subs = new Set<string>(['id']);
        const extra = Math.floor(random() * 3);
        for (let k = 0; k < extra; k++) subs.add(pick(SUBFIELDS[spec.returns]));
        for (const s of subs) if (s.includes('UserBits')) usesUserBits = true;
        selection = ` { ${[...subs].join(' ')} }`;
      }
      // Every field gets a unique key, so fields with different arguments never clash.
      const field = `k${i}: ${spec.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${selection}`;
      const place = random();
      if (place < 0.15) {
        const v = `c${n}_${i}`;
        definitions.push(`$${v}: Boolean!`);
        variables[v] = random() < 0.5;
        root.push(`... @include(if: $${v}) { ${field} }`);
      } else if (place < 0.3) rootFragment.push(field);
      else if (place < 0.4) root.push(`${field.replace(selection, '')} @skip(if: ${random() < 0.5})${selection}`);
      else root.push(field);
    }
    if (rootFragment.length > 0) root.push(random() < 0.5 ? '...RootPart' : '...RootPart @include(if: true)');
    if (random() < 0.2) root.push('__typename');
    const defs = definitions.length > 0 ? `(${definitions.join(', ')})` : '';
    let query = `query Generated${n}${defs} { ${root.join(' ')} }`;
    if (rootFragment.length > 0) query += `\nfragment RootPart on Query { ${rootFragment.join(' ')} }`;
    if (usesUserBits) query += '\nfragment UserBits on User { id name email }';
    cases.push({ name: `generated #${n}`, query, variables });
  }
  return cases;
}
