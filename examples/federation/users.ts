/** users: a member owning User, on its own embedded database. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { Entity, ErDiagram, GraphQLHandler } from 'ergraph';
import { AutoQueryConfig, tableModel } from 'ergraph/orm';
import { buildFederableApp } from 'ergraph/federation';
import { database, listen, PORTS } from './serve.js';

export const usersTable = pgTable('users', { id: integer('id').primaryKey(), name: text('name').notNull() });

export class User extends tableModel(usersTable) {
  static __federation_keys__ = ['id'];
}

const { db } = await database('create table users (id integer primary key, name text not null)');
await db.insert(usersTable).values(['ada', 'grace', 'linus', 'barbara', 'ken'].map((name, i) => ({ id: i + 1, name })));

const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: User })] }), {
  serviceName: 'users',
  sessionFactory: () => db,
  autoQueryConfig: new AutoQueryConfig(),
});
listen('users', buildFederableApp(handler), PORTS.users);
