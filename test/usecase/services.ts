/** Services shared by the use-case tests: an in-memory task list with an owner per task. */
import { z } from 'zod';
import { exclude, model, mutation, query, ref } from 'ergraph';
import { FromContext, HttpError, UseCaseService } from 'ergraph/usecase';

export class Owner extends model({ id: z.int(), name: z.string(), passwordHash: exclude(z.string().default('')) }) {}

export class Task extends model({
  id: z.int(),
  title: z.string(),
  done: z.boolean().default(false),
  owner: ref(() => Owner).nullable(),
}) {}

const owners = [new Owner({ id: 1, name: 'Ada', passwordHash: 'secret' })];

export function seed(): Task[] {
  return [
    new Task({ id: 1, title: 'compile', owner: owners[0] }),
    new Task({ id: 2, title: 'ship', done: true, owner: null }),
  ];
}

export let tasks = seed();
export const resetTasks = () => {
  tasks = seed();
};

export class TaskService extends UseCaseService {
  @query({ args: { limit: z.int().min(1).max(100).default(20) }, returns: () => [Task], description: 'Tasks, oldest first' })
  static async listTasks({ limit }: { limit: number }) {
    return tasks.slice(0, limit);
  }

  @query({ args: { taskId: z.int() }, returns: () => Task })
  static async getTask({ taskId }: { taskId: number }) {
    return tasks.find((t) => t.id === taskId) ?? null;
  }

  @mutation({ args: { title: z.string().min(1), userId: FromContext(z.int()) }, returns: () => Task })
  static async createTask({ title, userId }: { title: string; userId: number }) {
    const task = new Task({ id: tasks.length + 1, title, owner: owners.find((o) => o.id === userId) ?? null });
    tasks.push(task);
    return task;
  }

  @mutation({ args: { taskId: z.int(), title: z.string().min(1) }, returns: () => ref(() => Task).nullable() })
  static async renameTask({ taskId, title }: { taskId: number; title: string }) {
    const task = tasks.find((t) => t.id === taskId);
    if (!task) return null;
    task.title = title;
    return task;
  }

  @mutation({ args: { taskId: z.int() }, returns: z.boolean() })
  static async deleteTask({ taskId }: { taskId: number }) {
    const before = tasks.length;
    tasks = tasks.filter((t) => t.id !== taskId);
    return tasks.length < before;
  }
}

// Module-level rather than a static field: under vitest's esbuild transform (no keepNames) a
// decorated class with static fields loses its name, and the name is the route segment.
export const reportCalls: Array<{ self: unknown; context: unknown }> = [];

export class ReportService extends UseCaseService {

  @query({ returns: z.object({ open: z.int(), done: z.int() }), description: 'Counts by state' })
  static async summary(_args: object, context?: Record<string, unknown>) {
    reportCalls.push({ self: this, context });
    // the extra key must not reach the wire: the declared object has two fields
    return { open: tasks.filter((t) => !t.done).length, done: tasks.filter((t) => t.done).length, internal: 'x' };
  }

  @query({ returns: () => Task })
  static async broken() {
    return { id: 'not a number', title: 3 };
  }

  @query({ returns: z.string() })
  static async crash(): Promise<string> {
    throw new Error('database password is hunter2');
  }

  @query({ args: { code: z.int() }, returns: z.string() })
  static async refuse({ code }: { code: number }): Promise<string> {
    throw new HttpError(code === 403 ? 403 : 409, `refused with ${code}`, { code });
  }
}
