/**
 * The same v5 query through the compat layer and, rewritten to the v6 grouped form, directly
 * through the v6 `GraphQLHandler`, on the same diagram and data in one run. Then the cost of
 * shadow runs (issue 46.2): compat with `shadow` at 1 % and 100 % sampling against compat alone,
 * each request awaited with its shadow run, so a side's CPU time holds the work it caused.
 * Run: npx tsx bench/compat.ts
 */
import { alternate, mainThreadRatio, runAlone, type BenchRow, type BenchRun } from './report.js';
import { z } from 'zod';
import { buildList, buildObject, Entity, ErDiagram, GraphQLHandler, model, QueryConfig, Relationship } from 'ergraph';
import { createCompatHandler, type CompatHandler, type ShadowOptions } from 'ergraph/compat';

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

const alone = 'compat alone';
// 100 % with the default bounds (2 at once, 1000 ms of runs a minute) runs until the minute's
// budget is spent, then drops; "no bounds" shadows every request, the cost the bounds cap.
const SHADOWED: Array<[string, ShadowOptions]> = [
  ['compat + shadow 1 %', { sample: 0.01 }],
  ['compat + shadow 100 %', { sample: 1 }],
  ['compat + shadow 100 %, no bounds', { sample: 1, maxConcurrent: Infinity, budgetMs: Infinity }],
];
const handlers: Record<string, CompatHandler> = { [alone]: createCompatHandler(handler) };
for (const [name, shadow] of SHADOWED) handlers[name] = createCompatHandler(handler, { shadow });
const answered = async (c: CompatHandler, query: string, vars?: Record<string, unknown>) => {
  await c.execute(query, vars ? { variables: vars } : {});
  await c.shadow.idle();
};

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
  const shadowCases: [string, string, Record<string, unknown> | undefined][] = [
    ['shadow: 200 users x 3 tasks x owner', V5, variables],
    ['shadow: one task by id with its owner', SMALL_V5, undefined],
  ];
  for (const [name, query, vars] of shadowCases) {
    // Each sampling beside compat alone, in rounds of its own: the garbage a 100 % side leaves
    // would otherwise be collected in the 1 % side's rounds.
    for (const [n] of SHADOWED) {
      const before = handlers[n]!.shadow.status();
      const { ms, threadMs, rounds } = await alternate(
        { [n]: () => answered(handlers[n]!, query, vars), [alone]: () => answered(handlers[alone]!, query, vars) },
        { budgetMs: budgetMs / 8 },
      );
      const after = handlers[n]!.shadow.status();
      if (after.differs > 0 || after.failed > 0) throw new Error(`${n}: shadow runs differ or fail: ${JSON.stringify(after)}`);
      const runs = `${after.same - before.same} runs, ${after.dropped.budget - before.dropped.budget} dropped by the budget`;
      const note = [runs, mainThreadRatio(threadMs, n, alone)].filter(Boolean).join('; ');
      // The default, 1 %, should cost little; 100 % is what shadowing every request costs.
      rows.push({ bench: 'compat', case: name, subject: n, subjectMs: ms[n]!, baseline: alone, baselineMs: ms[alone]!, rounds, note, ...(n.endsWith('1 %') ? { target: 1.05 } : {}) });
    }
  }
  return rows;
};

await runAlone(import.meta, run, 10_000);
