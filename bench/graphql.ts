/**
 * GraphQL execution: ergraph's `handler.execute` against a hand-written graphql-js schema with
 * DataLoader resolvers, on the same in-memory data and the same batch functions, in one run.
 *
 *   npx tsx bench/graphql.ts
 *
 * The query walks three relationship levels under 1,000 users:
 *   users → tasks (3,000) → owner + comments (6,000) → comment authors.
 */
import DataLoader from 'dataloader';
import {
  execute,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  validate,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, model, QueryConfig, ref, Relationship } from 'ergraph';

// ---- data and batch functions, shared by both sides ----
type UserRow = { id: number; name: string };
type TaskRow = { id: number; ownerId: number; title: string };
type CommentRow = { id: number; taskId: number; authorId: number; body: string };

const PARENTS = 1000;
const users: UserRow[] = Array.from({ length: PARENTS }, (_, i) => ({ id: i + 1, name: `user ${i + 1}` }));
const tasks: TaskRow[] = users.flatMap((u) => [0, 1, 2].map((j) => ({ id: u.id * 10 + j, ownerId: u.id, title: `task ${u.id}.${j}` })));
const comments: CommentRow[] = tasks.flatMap((t) => [0, 1].map((j) => ({ id: t.id * 10 + j, taskId: t.id, authorId: ((t.ownerId + j) % PARENTS) + 1, body: `comment ${t.id}.${j}` })));

const usersById = new Map(users.map((u) => [u.id, u]));
const group = <T, K>(rows: T[], key: (row: T) => K) => {
  const map = new Map<K, T[]>();
  for (const row of rows) (map.get(key(row)) ?? map.set(key(row), []).get(key(row))!).push(row);
  return map;
};
const tasksByOwnerId = group(tasks, (t) => t.ownerId);
const commentsByTaskId = group(comments, (c) => c.taskId);

const loadUsers = async (keys: readonly number[]) => keys.map((k) => usersById.get(k) ?? null);
const loadTasksByOwner = async (keys: readonly number[]) => keys.map((k) => tasksByOwnerId.get(k) ?? []);
const loadCommentsByTask = async (keys: readonly number[]) => keys.map((k) => commentsByTaskId.get(k) ?? []);

const QUERY = `{ User { getAll(limit: ${PARENTS}) { id name
  tasks { id title owner { name } comments { body author { name } } }
} } }`;

// ---- ergraph ----
class User extends model({ id: z.int(), name: z.string() }) {}
class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string() }) {}
class Comment extends model({ id: z.int(), taskId: z.int(), authorId: z.int(), body: z.string() }) {}

const handler = new GraphQLHandler(
  new ErDiagram({
    entities: [
      new Entity({
        kls: User,
        relationships: [new Relationship({ fk: 'id', target: [Task], name: 'tasks', loader: loadTasksByOwner })],
        queries: [
          new QueryConfig({
            name: 'getAll',
            args: { limit: z.int().default(20) },
            returns: z.array(ref(() => User)),
            method: async ({ limit }: { limit: number }) => users.slice(0, limit),
          }),
        ],
      }),
      new Entity({
        kls: Task,
        relationships: [
          new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: loadUsers }),
          new Relationship({ fk: 'id', target: [Comment], name: 'comments', loader: loadCommentsByTask }),
        ],
      }),
      new Entity({
        kls: Comment,
        relationships: [new Relationship({ fk: 'authorId', target: User, name: 'author', loader: loadUsers })],
      }),
    ],
  }),
);

// ---- hand-written graphql-js + DataLoader ----
interface Loaders {
  users: DataLoader<number, UserRow | null>;
  tasks: DataLoader<number, TaskRow[]>;
  comments: DataLoader<number, CommentRow[]>;
}
const nonNullList = (type: GraphQLObjectType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));
const UserType: GraphQLObjectType<UserRow, Loaders> = new GraphQLObjectType<UserRow, Loaders>({
  name: 'User',
  fields: (): GraphQLFieldConfigMap<UserRow, Loaders> => ({
    id: { type: new GraphQLNonNull(GraphQLInt) },
    name: { type: new GraphQLNonNull(GraphQLString) },
    tasks: { type: nonNullList(TaskType), resolve: (u, _a, ctx) => ctx.tasks.load(u.id) },
  }),
});
const TaskType: GraphQLObjectType<TaskRow, Loaders> = new GraphQLObjectType<TaskRow, Loaders>({
  name: 'Task',
  fields: (): GraphQLFieldConfigMap<TaskRow, Loaders> => ({
    id: { type: new GraphQLNonNull(GraphQLInt) },
    ownerId: { type: new GraphQLNonNull(GraphQLInt) },
    title: { type: new GraphQLNonNull(GraphQLString) },
    owner: { type: UserType, resolve: (t, _a, ctx) => ctx.users.load(t.ownerId) },
    comments: { type: nonNullList(CommentType), resolve: (t, _a, ctx) => ctx.comments.load(t.id) },
  }),
});
const CommentType: GraphQLObjectType<CommentRow, Loaders> = new GraphQLObjectType<CommentRow, Loaders>({
  name: 'Comment',
  fields: (): GraphQLFieldConfigMap<CommentRow, Loaders> => ({
    id: { type: new GraphQLNonNull(GraphQLInt) },
    body: { type: new GraphQLNonNull(GraphQLString) },
    author: { type: UserType, resolve: (c, _a, ctx) => ctx.users.load(c.authorId) },
  }),
});
const baseline = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      User: {
        type: new GraphQLNonNull(
          new GraphQLObjectType({
            name: 'UserQuery',
            fields: {
              getAll: {
                type: nonNullList(UserType),
                args: { limit: { type: GraphQLInt, defaultValue: 20 } },
                resolve: async (_s, { limit }: { limit: number }) => users.slice(0, limit),
              },
            },
          }),
        ),
        resolve: () => ({}),
      },
    },
  }),
});
const document = parse(QUERY);
if (validate(baseline, document).length) throw new Error('baseline query does not validate');
const runBaseline = () =>
  execute({
    schema: baseline,
    document,
    contextValue: {
      users: new DataLoader(loadUsers),
      tasks: new DataLoader(loadTasksByOwner),
      comments: new DataLoader(loadCommentsByTask),
    } satisfies Loaders,
  });

// ---- same answers first ----
const [ours, theirs] = await Promise.all([handler.execute(QUERY), runBaseline()]);
if (ours.errors || JSON.stringify(ours.data) !== JSON.stringify(theirs.data)) {
  throw new Error(`ergraph and the baseline disagree: ${JSON.stringify(ours.errors ?? 'different data')}`);
}

const bench = new Bench({ time: 3000, warmup: true, warmupTime: 1000 });
bench.add('ergraph handler.execute', async () => {
  await handler.execute(QUERY);
});
bench.add('graphql-js + DataLoader (hand-written)', async () => {
  await runBaseline();
});
await bench.run();

const mean = (name: string) => {
  const task = bench.tasks.find((t) => t.name === name)!;
  const result = task.result as unknown as { latency?: { mean: number }; mean?: number };
  return result.latency?.mean ?? result.mean!;
};
const ergraph = mean('ergraph handler.execute');
const hand = mean('graphql-js + DataLoader (hand-written)');
console.table(
  bench.tasks.map((t) => ({ task: t.name, 'mean ms': (t.name.startsWith('ergraph') ? ergraph : hand).toFixed(2) })),
);
console.log(`3-level query over ${PARENTS} parents: ergraph ${ergraph.toFixed(2)} ms, hand-written ${hand.toFixed(2)} ms, ratio ${(ergraph / hand).toFixed(2)} (target ≤ 1.00)`);
