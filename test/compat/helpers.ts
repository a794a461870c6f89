/**
 * A small domain served three ways over the same resolvers: as a v6 grouped schema (the shape
 * `GraphQLHandler` produces), as the v5 flat schema v5 generated (the oracle the compat layer must
 * match), each wrapped in the `{ schema, execute }` handler interface.
 */
import { buildSchema, graphql, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { ExecutionResponse, V6Handler } from 'ergraph/compat';

export const ENTITY_TYPES = /* GraphQL */ `
  enum Status { OPEN DONE }
  input TaskInput { title: String! ownerId: Int! }
  "A person"
  type User {
    id: Int!
    name: String!
    email: String
    tasks(done: Boolean): [Task!]!
    "Throws for user 2"
    strict: String!
  }
  type Task {
    id: Int!
    title: String!
    status: Status!
    owner: User
    "Always throws"
    boom: String
  }
`;

export const V6_SDL = /* GraphQL */ `
  type Query { User: UserQuery! Task: TaskQuery! }
  type UserQuery {
    "All users"
    getAll(limit: Int = 20): [User!]!
    byId(id: Int!): User
    list_items_2fa: [String!]!
    get_by_ID(id: Int!): User
  }
  type TaskQuery {
    getAll(limit: Int = 20, status: Status): [Task!]!
    byId(id: Int!): Task
    mustExist(id: Int!): Task!
  }
  type Mutation { Task: TaskMutation! User: UserMutation! }
  type TaskMutation {
    "Create a task"
    create(input: TaskInput!): Task!
    complete(id: Int!): Task
    fail: Task!
  }
  type UserMutation { rename(id: Int!, name: String!): User }
  ${ENTITY_TYPES}
`;

export const V5_SDL = /* GraphQL */ `
  type Query {
    "All users"
    userGetAll(limit: Int = 20): [User!]!
    userById(id: Int!): User
    userListItems2Fa: [String!]!
    userGetById(id: Int!): User
    taskGetAll(limit: Int = 20, status: Status): [Task!]!
    taskById(id: Int!): Task
    taskMustExist(id: Int!): Task!
  }
  type Mutation {
    "Create a task"
    taskCreate(input: TaskInput!): Task!
    taskComplete(id: Int!): Task
    taskFail: Task!
    userRename(id: Int!, name: String!): User
  }
  ${ENTITY_TYPES}
`;

interface UserRow { id: number; name: string; email: string | null }
interface TaskRow { id: number; title: string; status: 'OPEN' | 'DONE'; ownerId: number }
type Args = Record<string, unknown>;
type Method = (args: Args, context: unknown) => unknown;

/** Fresh data per call so mutation tests cannot leak into each other; `log` records mutations. */
export function createDomain() {
  const users: UserRow[] = [
    { id: 1, name: 'Ada', email: 'ada@example.com' },
    { id: 2, name: 'Brian', email: null },
    { id: 3, name: 'Cleo', email: 'cleo@example.com' },
  ];
  const tasks: TaskRow[] = [
    { id: 1, title: 'Write spec', status: 'DONE', ownerId: 1 },
    { id: 2, title: 'Port engine', status: 'OPEN', ownerId: 1 },
    { id: 3, title: 'Review', status: 'OPEN', ownerId: 2 },
  ];
  const log: string[] = [];
  const limited = <T>(rows: T[], limit: unknown) => rows.slice(0, typeof limit === 'number' ? limit : 20);
  const methods: Record<'query' | 'mutation', Record<string, Record<string, Method>>> = {
    query: {
      User: {
        getAll: ({ limit }) => limited(users, limit),
        byId: ({ id }) => users.find((u) => u.id === id) ?? null,
        list_items_2fa: () => ['totp', 'sms'],
        get_by_ID: ({ id }) => users.find((u) => u.id === id) ?? null,
      },
      Task: {
        getAll: ({ limit, status }) => limited(status ? tasks.filter((t) => t.status === status) : tasks, limit),
        byId: ({ id }) => tasks.find((t) => t.id === id) ?? null,
        mustExist: ({ id }) => {
          const task = tasks.find((t) => t.id === id);
          if (!task) throw new Error(`Task ${String(id)} not found`);
          return task;
        },
      },
    },
    mutation: {
      Task: {
        create: async ({ input }) => {
          const { title, ownerId } = input as { title: string; ownerId: number };
          await new Promise((r) => setTimeout(r, 5 - (tasks.length % 5))); // uneven latency exposes reordering
          const task: TaskRow = { id: tasks.length + 1, title, status: 'OPEN', ownerId };
          tasks.push(task);
          log.push(`Task.create ${title}`);
          return task;
        },
        complete: ({ id }) => {
          const task = tasks.find((t) => t.id === id);
          log.push(`Task.complete ${String(id)}`);
          if (task) task.status = 'DONE';
          return task ?? null;
        },
        fail: () => {
          log.push('Task.fail');
          throw new Error('cannot fail successfully');
        },
      },
      User: {
        rename: ({ id, name }) => {
          const user = users.find((u) => u.id === id);
          log.push(`User.rename ${String(id)}`);
          if (user) user.name = name as string;
          return user ?? null;
        },
      },
    },
  };
  const fieldResolvers: Record<string, Record<string, GraphQLFieldResolver<any, unknown>>> = {
    User: {
      tasks: (u: UserRow, { done }: Args) =>
        tasks.filter((t) => t.ownerId === u.id && (done === undefined || (t.status === 'DONE') === done)),
      strict: (u: UserRow) => {
        if (u.id === 2) throw new Error(`strict failed for ${u.name}`);
        return u.name.toUpperCase();
      },
    },
    Task: {
      owner: (t: TaskRow) => users.find((u) => u.id === t.ownerId) ?? null,
      boom: () => {
        throw new Error('boom');
      },
    },
  };
  return { users, tasks, log, methods, fieldResolvers };
}

export type Domain = ReturnType<typeof createDomain>;

function wireEntities(schema: GraphQLSchema, domain: Domain): void {
  for (const [typeName, resolvers] of Object.entries(domain.fieldResolvers)) {
    const type = schema.getType(typeName) as { getFields(): Record<string, { resolve?: unknown }> };
    for (const [field, resolve] of Object.entries(resolvers)) type.getFields()[field]!.resolve = resolve;
  }
}

function handlerOver(schema: GraphQLSchema): V6Handler {
  return {
    schema,
    async execute(query, opts = {}): Promise<ExecutionResponse> {
      const result = await graphql({
        schema,
        source: query,
        variableValues: opts.variables,
        contextValue: opts.context,
        operationName: opts.operationName,
      });
      return {
        data: (result.data as Record<string, unknown> | undefined) ?? null,
        errors: result.errors ? result.errors.map((e) => e.toJSON()) : null,
      };
    },
  };
}

/** The v6 grouped handler (stand-in for `GraphQLHandler`), built with graphql-js directly. */
export function createV6Handler(domain: Domain = createDomain()): V6Handler {
  const schema = buildSchema(V6_SDL);
  wireEntities(schema, domain);
  for (const kind of ['query', 'mutation'] as const) {
    const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
    for (const [entity, methods] of Object.entries(domain.methods[kind])) {
      // graphql-js runs the fields of one object in parallel; v6 runs mutations inside one group
      // one after another, so each group value carries a chain the methods queue on.
      root.getFields()[entity]!.resolve = () => ({ chain: Promise.resolve() });
      const group = schema.getType(`${entity}${kind === 'query' ? 'Query' : 'Mutation'}`) as {
        getFields(): Record<string, { resolve?: unknown }>;
      };
      for (const [method, fn] of Object.entries(methods)) {
        group.getFields()[method]!.resolve =
          kind === 'query'
            ? (_: unknown, args: Args, ctx: unknown) => fn(args, ctx)
            : (g: { chain: Promise<unknown> }, args: Args, ctx: unknown) => {
                const run = g.chain.then(() => fn(args, ctx));
                g.chain = run.catch(() => undefined);
                return run;
              };
      }
    }
  }
  return handlerOver(schema);
}

/** The v5 flat handler, as v5 served it: the oracle for "exactly what v5 returned". */
export function createV5Handler(domain: Domain = createDomain()): V6Handler {
  const schema = buildSchema(V5_SDL);
  wireEntities(schema, domain);
  for (const kind of ['query', 'mutation'] as const) {
    const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
    for (const [entity, methods] of Object.entries(domain.methods[kind])) {
      for (const [method, fn] of Object.entries(methods)) {
        const flat = entity.charAt(0).toLowerCase() + entity.slice(1) + flatSuffix(method);
        root.getFields()[flat]!.resolve = (_: unknown, args: Args, ctx: unknown) => fn(args, ctx);
      }
    }
  }
  return handlerOver(schema);
}

// Written out by hand on purpose: the oracle must not share the naming code under test.
const FLAT_SUFFIX: Record<string, string> = {
  getAll: 'GetAll',
  byId: 'ById',
  list_items_2fa: 'ListItems2Fa',
  get_by_ID: 'GetById',
  mustExist: 'MustExist',
  create: 'Create',
  complete: 'Complete',
  fail: 'Fail',
  rename: 'Rename',
};
function flatSuffix(method: string): string {
  const suffix = FLAT_SUFFIX[method];
  if (!suffix) throw new Error(`no flat suffix for ${method}`);
  return suffix;
}
