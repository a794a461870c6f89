/**
 * The same v5 query through the compat layer and, rewritten to the v6 grouped form, directly
 * through the v6 `GraphQLHandler`, on the same diagram and data in one run.
 * Run: npx tsx bench/compat.ts
 */
import { alternate, runAlone, type BenchRow, type BenchRun } from './report.js';
import { z } from 'zod';
import { buildList, buildObject, Entity, ErDiagram, GraphQLHandler, model, QueryConfig, Relationship } from 'ergraph';
import { createCompatHandler } from 'ergraph/compat';

const users = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, name: `user${i + 1}` }));
const tasks = users.flatMap((u) => Array.from({ length: 3 }, (_, j) => ({ id: u.id * 10 + j, ownerId: u.id, title: `task ${u.id}.${j}` })));
const usersIndex = new Map(users.map((u) => [u.id, u]));

class User extends model({ id: z.int(), name: z.string() }) {}
class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string() }) {}

const tasksByOwner = async (keys: readonly number[]) => buildList(tasks.map((t) => new Task(t)), keys, (t) => t.ownerId);
const usersById = async (keys: readonly number[]) =>
  buildObject(keys.map((k) => usersIndex.get(k)).filter((u) => u !== undefined).map((u) => new User(u)), keys, (u) => u.id);

const diagram = new ErDiagram({
  entities: [
    new Entity({
      kls: User,
      relationships: [new Relationship({ fk: 'id', target: [Task], name: 'tasks', loader: tasksByOwner })],
      queries: [
        new QueryConfig({
          name: 'getAll',
          method: async ({ limit }: { limit: number }) => users.slice(0, limit).map((u) => new User(u)),
          args: { limit: z.int().default(20) },
          returns: () => [User],
        }),
      ],
    }),
    new Entity({
      kls: Task,
      relationships: [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById })],
      queries: [
        new QueryConfig({
          name: 'byId',
          method: async ({ id }: { id: number }) => {
            const t = tasks.find((x) => x.id === id);
            return t ? new Task(t) : null;
          },
          args: { id: z.int() },
          returns: () => Task,
        }),
      ],
    }),
  ],
});

const handler = new GraphQLHandler(diagram);
const compat = createCompatHandler(handler);

const V5 = 'query Board($n: Int) { people: userGetAll(limit: $n) { id name tasks { id title owner { name } } } taskById(id: 11) { title } }';
// What `ergraph-migrate v5-to-v6` writes for V5.
const V6 = 'query Board($n: Int) { User { people: getAll(limit: $n) { id name tasks { id title owner { name } } } } Task { taskById: byId(id: 11) { title } } }';
const variables = { n: 200 };

// Same answer, or the comparison means nothing.
const [a, b] = [await compat.execute(V5, { variables }), await handler.execute(V6, { variables })];
const grouped = b.data as { User: { people: unknown }; Task: { taskById: unknown } };
if (a.errors || b.errors || JSON.stringify(a.data) !== JSON.stringify({ people: grouped.User.people, taskById: grouped.Task.taskById })) {
  throw new Error(`compat and v6 disagree: ${JSON.stringify(a.errors ?? b.errors)}`);
}

const SMALL_V5 = '{ taskById(id: 11) { title owner { name } } }';
const SMALL_V6 = '{ Task { taskById: byId(id: 11) { title owner { name } } } }';

const subject = 'compat (v5 document)';
const baseline = 'v6 GraphQLHandler (grouped document)';

export const run: BenchRun = async ({ budgetMs }) => {
  const rows: BenchRow[] = [];
  const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    ['200 users x 3 tasks x owner', () => compat.execute(V5, { variables }), () => handler.execute(V6, { variables })],
    // A small query: the compat layer's fixed cost per request shows most here.
    ['one task by id with its owner', () => compat.execute(SMALL_V5), () => handler.execute(SMALL_V6)],
  ];
  for (const [name, compatSide, v6Side] of cases) {
    const { ms, rounds } = await alternate({ [subject]: compatSide, [baseline]: v6Side }, { budgetMs: budgetMs / cases.length });
    rows.push({ bench: 'compat', case: name, subject, subjectMs: ms[subject]!, baseline, baselineMs: ms[baseline]!, target: 1.2, rounds });
  }
  return rows;
};

await runAlone(import.meta, run, 10_000);
