import { Hono } from 'hono';
import { z } from 'zod';
import { DefineSubset, model, query } from 'ergraph';
import { createUseCaseRouter, FromContext, headerContext, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';
class Task extends model({ id: z.int(), title: z.string(), ownerId: z.int() }) {}
class TaskView extends DefineSubset(Task, ['id', 'title']) {}
declare function tasksOf(userId: number, limit: number): Promise<TaskView[]>;
const app = new Hono();
