/**
 * The app `ergraph-migrate verify` runs against in test/codemods/verify.test.ts (`--app`): users,
 * a clock whose every answer is new (so its v5 and v6 runs differ, as a resolver whose v6
 * behaviour changed would), a query that fails, and a mutation.
 */
import { z } from 'zod';
import { baseEntity, GraphQLHandler, model, mutation, query } from '../../../src/index.js';

const users = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace' },
  { id: 3, name: 'Edsger' },
];
let ticks = 0;
let tasks = 0;

const Base = baseEntity();

export class User extends model({ id: z.int(), name: z.string() }) {
  @query({ args: { limit: z.int().default(10) }, returns: () => [User] })
  static async getAll({ limit }: { limit: number }) {
    return users.slice(0, limit).map((u) => new User(u));
  }
  @query({ args: { id: z.int() }, returns: () => User })
  static async byId({ id }: { id: number }) {
    const found = users.find((u) => u.id === id);
    return found ? new User(found) : null;
  }
  // An unexpected error: masked, with a fresh error id per answer.
  @query({ returns: () => User })
  static async broken(): Promise<User> {
    throw new Error('the database is down');
  }
}

export class Clock extends model({ tick: z.int() }) {
  @query({ returns: () => Clock })
  static async now() {
    return new Clock({ tick: ++ticks });
  }
}

export class Task extends model({ id: z.int(), title: z.string() }) {
  @mutation({ args: { title: z.string() }, returns: () => Task })
  static async create({ title }: { title: string }) {
    return new Task({ id: ++tasks, title });
  }
}

Base.entity(User, { name: 'User' });
Base.entity(Clock, { name: 'Clock' });
Base.entity(Task, { name: 'Task' });

export const handler = new GraphQLHandler(Base.getDiagram());
