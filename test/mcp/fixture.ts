/**
 * A v6-shaped GraphQL app built with graphql-js directly, so the MCP tools are tested against the
 * handler interface only (`{ schema, execute }`), not against one implementation of it.
 */
import { buildSchema, graphql } from 'graphql';
import type { GraphQLAppHandler, McpApp } from 'ergraph/mcp';

const sdl = /* GraphQL */ `
  "A person who owns tasks"
  type User {
    id: Int!
    name: String!
    tasks: [Task!]!
  }

  type Task {
    id: Int!
    title: String!
    status: Status!
    owner: User
  }

  enum Status {
    OPEN
    DONE
  }

  input TaskInput {
    title: String!
    ownerId: Int!
    status: Status = OPEN
  }

  "Not reachable from any operation but the full schema"
  type AuditEntry {
    id: Int!
  }

  type UserQuery {
    "All users"
    getAll(limit: Int = 20): [User!]!
    byId(id: Int!): User
  }

  type TaskQuery {
    list: [Task!]!
    audit: [AuditEntry!]!
  }

  type TaskMutation {
    "Create a task"
    create(input: TaskInput!): Task!
  }

  type Query {
    User: UserQuery!
    Task: TaskQuery!
  }

  type Mutation {
    Task: TaskMutation!
  }
`;

interface Row {
  id: number;
  title: string;
  status: 'OPEN' | 'DONE';
  ownerId: number;
}

export function demoHandler(): GraphQLAppHandler & { contexts: unknown[] } {
  const users = [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Grace' },
  ];
  const tasks: Row[] = [{ id: 1, title: 'compile', status: 'OPEN', ownerId: 1 }];
  const user = (u: { id: number; name: string }) => ({ ...u, tasks: () => tasks.filter((t) => t.ownerId === u.id).map(task) });
  const task = (t: Row): object => ({ ...t, owner: () => user(users.find((u) => u.id === t.ownerId)!) });
  const contexts: unknown[] = [];
  const schema = buildSchema(sdl);
  const rootValue = {
    User: () => ({
      getAll: ({ limit }: { limit: number }) => users.slice(0, limit).map(user),
      byId: ({ id }: { id: number }) => users.filter((u) => u.id === id).map(user)[0] ?? null,
    }),
    Task: () => ({
      list: () => tasks.map(task),
      audit: () => [],
      create: ({ input }: { input: Omit<Row, 'id'> }) => {
        const row = { id: tasks.length + 1, ...input };
        tasks.push(row);
        return task(row);
      },
    }),
  };
  return {
    schema,
    contexts,
    async execute(source, options = {}) {
      contexts.push(options.context);
      const result = await graphql({
        schema,
        source,
        rootValue,
        contextValue: options.context,
        variableValues: options.variables,
        operationName: options.operationName,
      });
      return { data: result.data ?? null, errors: result.errors ?? null };
    },
  };
}

export function demoApps(): McpApp[] {
  return [
    { name: 'tasks', handler: demoHandler(), description: 'Users and their tasks' },
    { name: 'empty', handler: { schema: buildSchema('type Query { ping: Boolean }'), execute: async () => ({ data: null, errors: null }) } },
  ];
}
