/**
 * The TypeScript checker's pass never stops silently (issue 43.2): a typed result it follows two
 * calls away into another file is read there by a computed key, spread, asked for a key with
 * `in`, listed with `for…in`, read off a union with another type, or handed to a call whose
 * parameters it cannot see. Keys typed with literal names are rewritten; every other place is a
 * TODO, each held by its own test. One run of the pass (one program) serves them all.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyToFiles } from '../../codemods/apply.js';
import { transform } from '../../codemods/v5-to-v6/index.js';
import { APOLLO_TYPINGS, FIXTURES } from './helpers.js';

const schema = buildSchema(readFileSync(join(FIXTURES, 'v5-to-v6', 'app', 'schema.graphql'), 'utf8'));
const lines = (...l: string[]) => l.join('\n') + '\n';
const MOVE = '; move its reads: data.userGetAll → data.User.userGetAll';

const FILES: Record<string, string> = {
  'apollo.d.ts': APOLLO_TYPINGS,
  'types.ts': lines("export type UserGetAllQuery = { __typename?: 'Query'; userGetAll: { id: string }[] };"),
  'list.ts': lines(
    "import { gql, useQuery } from '@apollo/client';",
    "import type { UserGetAllQuery } from './types';",
    "import { show } from './show';",
    'const USERS = gql`{ userGetAll { id } }`;',
    'export function List() {',
    '  const { data } = useQuery<UserGetAllQuery>(USERS);',
    '  return data ? show(data) : null;',
    '}',
  ),
  // No document here: the result arrives typed, followed by the checker alone (the data flow stops one call away).
  'show.ts': lines("import type { UserGetAllQuery } from './types';", "import { rows } from './rows';", 'export const show = (d: UserGetAllQuery) => rows(d, "x", { userGetAll: 1 });'),
  'rows.ts': lines(
    "import type { UserGetAllQuery } from './types';",
    'declare const analytics: any;',
    'export function rows(d: UserGetAllQuery, key: string, other: { userGetAll: number }) {',
    '  const copy = { ...d };',
    "  const picked = d[key as 'userGetAll'];",
    '  const named = (k: keyof UserGetAllQuery) => d[k];',
    '  const any = d[key as never];',
    '  const either = (Math.random() > 0.5 ? d : other).userGetAll;',
    '  analytics.track(d);',
    '  for (const k in d) console.log(k);',
    "  const has = 'userGetAll' in d;",
    '  const asked = key in d;',
    '  return [copy, picked, named, any, either, has, asked];',
    '}',
  ),
};

let dir: string;
let rows: { output: string; manual: { line: number; reason: string }[] };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ergraph-typed-markers-'));
  // The checker reads the files no document is in from the disk, as a run does.
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  const outcomes = applyToFiles(transform, new Map(Object.entries(FILES).map(([name, text]) => [join(dir, name), text])), { schema });
  rows = outcomes.get(join(dir, 'rows.ts'))!.result!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reasonAt = (line: number) => rows.manual.filter((m) => m.line === line).map((m) => m.reason);

describe("the checker's markers, at a typed result two calls away", () => {
  it('a spread', () => {
    expect(reasonAt(4)).toEqual([`the typed result is spread into a value the checker cannot follow${MOVE}`]);
  });

  it('a computed key of no literal type is a TODO; keys typed with literal names are rewritten', () => {
    expect(reasonAt(7)).toEqual([`a computed read of a typed operation's data: \`key as never\` may name a moved field${MOVE}`]);
    expect(rows.output).toContain("  const picked = d.User[key as 'userGetAll'];\n");
    expect(rows.output).toContain("  const named = (k: keyof UserGetAllQuery) => (k === 'userGetAll' ? d.User.userGetAll : d[k]);\n");
  });

  it('a read off a union of the result with another type', () => {
    expect(reasonAt(8)).toEqual([
      `a read off a value typed \`UserGetAllQuery | { userGetAll: number; }\`, the typed result of an operation whose paths move or another value${MOVE}`,
    ]);
  });

  it('a call whose parameters the checker cannot find', () => {
    expect(reasonAt(9)).toEqual([`the typed result is passed to \`analytics.track\`, whose parameters the checker cannot find${MOVE}`]);
  });

  it('for…in and `in` with a key of no literal type are TODOs; `in` with a literal is rewritten', () => {
    expect(reasonAt(10)).toEqual([`\`for…in\` over a typed operation's data lists its v6 groups, not the v5 fields${MOVE}`]);
    expect(reasonAt(12)).toEqual([`\`in\` asks a typed operation's data for \`key\`, which may name a moved field${MOVE}`]);
    expect(rows.output).toContain("  const has = ('User' in d && 'userGetAll' in d.User);\n");
  });

  it('nothing else in the file is marked', () => {
    expect(rows.manual.map((m) => m.line)).toEqual([4, 7, 8, 9, 10, 12]);
  });
});
