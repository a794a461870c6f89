/**
 * The demo's ER graph: one entity per table, relationships from the Drizzle relations (plus
 * tasks ↔ tags through the join table), generated `getAll` / `byId` roots, one hand-written
 * query, and a GraphQL handler with per-parent pagination.
 */
import { asc, ilike } from 'drizzle-orm';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, QueryConfig } from 'ergraph';
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
  }).map((entity) =>
    entity.kls === Project
      ? new Entity({ kls: entity.kls, relationships: entity.relationships, queries: [searchProjects(db)] })
      : entity,
  );
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
