/**
 * The demo's ER graph: one entity per table, relationships from the Drizzle relations (plus
 * tasks ↔ tags through the join table), generated `getAll` / `byId` roots, one hand-written
 * query, and a GraphQL handler with per-parent pagination.
 */
import { asc, eq, ilike } from 'drizzle-orm';
import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, MutationConfig, QueryConfig, ref } from 'ergraph';
import { AutoQueryConfig, buildRelationship, tableModel, type SqlDatabase } from 'ergraph/orm';
import { comments, projects, schema, tags, taskTags, tasks, users } from './schema.js';

export class User extends tableModel(users) {}
export class Project extends tableModel(projects) {}
export class Task extends tableModel(tasks) {}
export class Comment extends tableModel(comments) {}
export class Tag extends tableModel(tags) {}

export interface DemoGraph {
  diagram: ErDiagram;
  handler: GraphQLHandler;
}

function searchProjects(db: SqlDatabase): QueryConfig {
  return new QueryConfig({
    name: 'search',
    description: 'Projects whose name contains the text (case-insensitive)',
    args: { text: z.string().min(1).max(100), limit: z.int().min(0).max(100).default(20) },
    returns: () => [Project],
    method: async ({ text, limit }: { text: string; limit: number }) => {
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db.select().from(projects).where(ilike(projects.name, pattern)).orderBy(asc(projects.id)).limit(limit);
      return rows.map((row) => new Project(row));
    },
  });
}

/** Mutations a newcomer can try; `create` needs only a title (the MCP tools' own example). */
export const DEMO_MUTATION = 'mutation { Task { create(title: "Try ergraph") { id title status project { name } } } }';

function taskMutations(db: SqlDatabase): MutationConfig[] {
  const create = new MutationConfig({
    name: 'create',
    description: `Add a task, to project 1 unless projectId says otherwise. Try: ${DEMO_MUTATION}`,
    args: {
      title: z.string().min(1).max(200),
      projectId: z.int().min(1).default(1),
      assigneeId: z.int().min(1).nullable().optional(),
      priority: z.int().min(1).max(5).default(3),
    },
    returns: () => Task,
    method: async (args: { title: string; projectId: number; assigneeId?: number | null; priority: number }) => {
      const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.id, args.projectId));
      // A GraphQLError is meant for the client; any other error reaches it masked, with an id.
      if (!project) throw new GraphQLError(`project ${args.projectId} does not exist`, { extensions: { code: 'NOT_FOUND' } });
      const [row] = await db
        .insert(tasks)
        .values({ ...args, assigneeId: args.assigneeId ?? null, status: 'todo', createdAt: new Date() })
        .returning();
      return new Task(row);
    },
  });
  const setStatus = new MutationConfig({
    name: 'setStatus',
    description: 'Move a task to todo, doing or done; null when there is no such task',
    args: { id: z.int(), status: Task.shape.status },
    returns: () => ref(() => Task).nullable(),
    method: async ({ id, status }: { id: number; status: 'todo' | 'doing' | 'done' }) => {
      const [row] = await db.update(tasks).set({ status }).where(eq(tasks.id, id)).returning();
      return row ? new Task(row) : null;
    },
  });
  return [create, setStatus];
}

export function buildGraph(db: SqlDatabase): DemoGraph {
  const entities = buildRelationship({
    db,
    schema,
    models: [User, Project, Task, Comment, Tag],
    orderBy: {
      'users.projects': { column: projects.createdAt, direction: 'desc' },
      'users.assignedTasks': tasks.priority,
      'users.comments': { column: comments.createdAt, direction: 'desc' },
      'projects.tasks': tasks.priority,
      'tasks.comments': comments.createdAt,
    },
    manyToMany: [
      { source: tasks, name: 'tags', target: tags, through: taskTags, sourceKey: taskTags.taskId, targetKey: taskTags.tagId, orderBy: tags.label },
    ],
  }).map((entity) => {
    if (entity.kls === Project) return new Entity({ kls: entity.kls, relationships: entity.relationships, queries: [searchProjects(db)] });
    if (entity.kls === Task) return new Entity({ kls: entity.kls, relationships: entity.relationships, mutations: taskMutations(db) });
    return entity;
  });
  const diagram = new ErDiagram({ entities });
  const handler = new GraphQLHandler(diagram, {
    enablePagination: true,
    base: schema,
    sessionFactory: () => db,
    autoQueryConfig: new AutoQueryConfig({ defaultLimit: 20, generateById: true }),
    serviceName: 'demo',
  });
  return { diagram: handler.diagram, handler };
}
