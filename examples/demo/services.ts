/**
 * The demo's use-case routes: application operations written once as service methods, served
 * as POST routes with OpenAPI. Response models are subsets of the entities; the resolver
 * fills their relationships (one query per relationship per level) through the demo diagram.
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { configResolver, DefineSubset, mutation, query, ref } from 'ergraph';
import { FromContext, headerContext, HttpError, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';
import type { SqlDatabase } from 'ergraph/orm';
import { Comment, Project, Tag, Task, User, type DemoGraph } from './graph.js';
import { comments, tasks } from './schema.js';

class UserCard extends DefineSubset(User, ['id', 'name']) {}
class TagLabel extends DefineSubset(Tag, ['label']) {}
class CommentView extends DefineSubset(Comment, ['id', 'body', 'createdAt'], { author: ref(() => UserCard) }) {}
class ProjectCard extends DefineSubset(Project, ['id', 'name']) {}
export class TaskCard extends DefineSubset(Task, ['id', 'title', 'status', 'priority'], {
  project: ref(() => ProjectCard),
  assignee: ref(() => UserCard).nullable(),
  tags: z.array(ref(() => TagLabel)).default([]),
}) {}

export function demoServices(db: SqlDatabase, graph: DemoGraph): UseCaseAppConfig {
  const DemoResolver = configResolver('DemoResolver', graph.diagram);
  const resolve = <T>(data: T) => new DemoResolver().resolve(data);

  class TaskService extends UseCaseService {
    @query({
      args: { userId: FromContext(z.int()), limit: z.int().min(1).max(100).default(20) },
      returns: () => [TaskCard],
      description: "The caller's open tasks, highest priority first, with project, assignee and tags",
    })
    static async myTasks({ userId, limit }: { userId: number; limit: number }) {
      const rows = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.assigneeId, userId), ne(tasks.status, 'done')))
        .orderBy(asc(tasks.priority), asc(tasks.id))
        .limit(limit);
      return resolve(rows.map((row) => new TaskCard(row)));
    }

    @query({ args: { taskId: z.int() }, returns: () => ref(() => TaskCard).nullable(), description: 'One task, or null' })
    static async getTask({ taskId }: { taskId: number }) {
      const [row] = await db.select().from(tasks).where(eq(tasks.id, taskId));
      return row ? resolve(new TaskCard(row)) : null;
    }

    @mutation({
      args: { taskId: z.int(), body: z.string().min(1).max(2000), userId: FromContext(z.int()) },
      returns: () => CommentView,
      description: 'Comment on a task as the caller',
    })
    static async addComment({ taskId, body, userId }: { taskId: number; body: string; userId: number }) {
      const [task] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId));
      if (!task) throw new HttpError(404, `task ${taskId} does not exist`);
      const [row] = await db.insert(comments).values({ taskId, authorId: userId, body, createdAt: new Date() }).returning();
      return resolve(new CommentView(row));
    }
  }

  return new UseCaseAppConfig({
    name: 'demo',
    services: [TaskService],
    // The demo trusts a header; a real service would verify a credential here (spec 5).
    // Routes that need the caller declare FromContext(userId); without the header they answer 400.
    // headerContext declares the header in openapi.json, so the docs page's "Try it out" sends it.
    contextExtractor: headerContext({ userId: { header: 'x-user-id', description: 'The calling user id (1-300 in the demo data)' } }, (request) => {
      const user = request.headers.get('x-user-id');
      if (user === null) return {};
      if (!/^\d+$/.test(user)) throw new HttpError(401, 'x-user-id must be a user id');
      return { userId: Number(user) };
    }),
  });
}
