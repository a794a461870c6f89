import { Hono } from 'hono';
import type { GraphQLHandler } from 'ergraph';
declare const handler: GraphQLHandler;
const app = new Hono();
import type { SqlDatabase } from 'ergraph/orm';
declare const db: SqlDatabase;
