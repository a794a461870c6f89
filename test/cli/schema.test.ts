/** `ergraph schema print|diff`, run as the bin (and in-process for the many error cases). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { buildSchema, graphqlSync, getIntrospectionQuery, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLHandler, schemaDiff } from 'ergraph';
import { compatApp, createCompatHandler, openUsageStore } from 'ergraph/compat';
import { createV6Handler } from '../compat/helpers.js';
import { linkErgraph } from '../support/built-package.js';
import { apps } from './fixtures/two-apps.js';
import { run, spawnCli } from './helpers.js';

const OLD = `type Query {
  userGetAll: [User!]!
  userById(id: Int!): User
  taskById(id: Int!): String
}
type User { id: Int! name: String email: String }
`;
const NEW = `type Query {
  userById(id: Int!, strict: Boolean!): User
  userCount: Int
}
type User { id: Int! name: String }
`;

let dir: string;
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ergraph-schema-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ergraph schema print', () => {
  it('takes a module that exports only an ER diagram, served as a plain GraphQLHandler named after the export', async () => {
    const { diagram } = await import('./fixtures/diagram-only.js');
    const printed = spawnCli(['schema', 'print', '--app', 'test/cli/fixtures/diagram-only.ts']);
    expect(await printed.exit()).toBe(0);
    expect(printed.stderr()).toBe('');
    expect(printed.stdout()).toBe(`${printSchema(new GraphQLHandler(diagram).schema)}\n`);
    expect(printed.stdout()).toContain('Book: BookQuery!');
    const named = await run(['schema', 'print', '--app', 'test/cli/fixtures/diagram-only.ts', '--name', 'diagram']);
    expect([named.code, named.stderr]).toEqual([0, '']);
  }, 60_000);

  it('prints the v6 SDL of the chosen app, and the v5 flat SDL with --v5', async () => {
    const v6 = spawnCli(['schema', 'print', '--app', 'test/cli/fixtures/two-apps.ts', '--name', 'books']);
    expect(await v6.exit()).toBe(0);
    expect(v6.stdout()).toBe(`${printSchema(apps[1]!.handler.schema)}\n`);
    expect(v6.stdout()).toContain('Book: BookQuery!');

    const v5 = await run(['schema', 'print', '--app', 'test/cli/fixtures/two-apps.ts', '--name', 'books', '--v5']);
    expect(v5.code).toBe(0);
    const flat = buildSchema(v5.stdout);
    expect(Object.keys(flat.getQueryType()!.getFields())).toEqual(['bookAll', 'bookForCaller']);
  }, 60_000);

  it('asks for --name when the module has several apps, and names a missing one', async () => {
    const several = await run(['schema', 'print', '--app', 'test/cli/fixtures/two-apps.ts']);
    expect(several).toMatchObject({ code: 1, stderr: 'ergraph: test/cli/fixtures/two-apps.ts has 2 apps (tasks, books): pick one with --name\n' });
    const missing = await run(['schema', 'print', '--app', 'test/cli/fixtures/two-apps.ts', '--name', 'films']);
    expect(missing.stderr).toBe('ergraph: test/cli/fixtures/two-apps.ts has no app named "films"; its apps: tasks, books\n');
  });

  it('loads the app of a CommonJS project (no "type": "module", npm\'s default) written in TypeScript', async () => {
    const project = mkdtempSync(join(dir, 'cjs-'));
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'package.json'), '{"name":"app","type":"commonjs"}');
    writeFileSync(
      join(project, 'src/graph.ts'),
      `import { z } from 'zod';
import { baseEntity, GraphQLHandler, model, query } from 'ergraph';

const Base = baseEntity();

@Base.entity
export class Book extends model({ id: z.int(), title: z.string() }) {
  @query({ returns: () => [Book] })
  static async all() {
    return [];
  }
}
export const handler = new GraphQLHandler(Base.getDiagram());
// A timer holding the event loop, as an app's database pool or server would: the command still ends.
setInterval(() => {}, 1000);
`,
    );
    // An import without an extension, as CommonJS TypeScript writes it.
    writeFileSync(join(project, 'src/app.ts'), "import { handler } from './graph';\nexport const apps = [{ name: 'books', handler, description: 'Books' }];\n");
    linkErgraph(project);
    const cli = spawnCli(['schema', 'print', '--app', 'src/app.ts'], { cwd: project });
    expect(await cli.exit()).toBe(0);
    expect(cli.stderr()).toBe('');
    expect(cli.stdout()).toContain('Book: BookQuery!');
  }, 60_000);
});

describe('ergraph schema diff', () => {
  it('classifies changes between SDL files and exits 1 on a breaking one', async () => {
    const cli = spawnCli(['schema', 'diff', file('old.graphql', OLD), file('new.graphql', NEW)]);
    expect(await cli.exit()).toBe(1);
    expect(cli.stdout()).toBe(
      [
        'BREAKING (4)',
        "  ✗ Field 'taskById' was removed from object type 'Query'",
        "  ✗ Argument 'strict: Boolean!' added to field 'Query.userById'",
        "  ✗ Field 'userGetAll' was removed from object type 'Query'",
        "  ✗ Field 'email' was removed from object type 'User'",
        '',
        'SAFE (1)',
        "  ✓ Field 'userCount' was added to object type 'Query'",
        '',
        '4 breaking, 0 dangerous, 1 safe',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('reads introspection JSON files and live endpoints as well as SDL', async () => {
    const oldJson = file('old.json', JSON.stringify(graphqlSync({ schema: buildSchema(OLD), source: getIntrospectionQuery() })));
    const fromJson = await schemaDiff(oldJson, file('new.graphql', NEW));
    expect(fromJson).toMatchObject({ breaking: 4, dangerous: 0, safe: 1 });
    // `{ __schema }` without the `data` envelope too
    const bare = file('bare.json', JSON.stringify(graphqlSync({ schema: buildSchema(OLD), source: getIntrospectionQuery() }).data));
    expect((await schemaDiff(bare, oldJson)).changes).toEqual([]);

    // The live v5 compat endpoint against its own printed SDL: no changes.
    const compat = createCompatHandler(createV6Handler());
    const server = serve({ fetch: compatApp(compat).fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const same = await run(['schema', 'diff', url, file('v5.graphql', printSchema(compat.schema)), '--format', 'json']);
      expect(same.code).toBe(0);
      expect(JSON.parse(same.stdout)).toEqual({ changes: [], breaking: 0, dangerous: 0, safe: 0 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives up on an endpoint that does not answer within --timeout', async () => {
    const sockets: import('node:net').Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/graphql`;
      // The server never answers: only --timeout ends the command (it would otherwise wait for ever).
      const res = await run(['schema', 'diff', url, file('new.graphql', NEW), '--timeout', '300']);
      expect(res).toMatchObject({ code: 1, stderr: `ergraph: ${url}: no introspection answer within 300 ms\n` });
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('follows no redirect: the introspection and its headers go to the address given and nowhere else', async () => {
    let reachedElsewhere = 0;
    const other: HttpServer = createHttpServer((_, res) => void (reachedElsewhere++, res.writeHead(500).end()));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    const elsewhere = `http://127.0.0.2:${(other.address() as AddressInfo).port}/graphql`;
    const moving: HttpServer = createHttpServer((_, res) => void res.writeHead(307, { location: elsewhere }).end());
    await new Promise<void>((resolve) => moving.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(moving.address() as AddressInfo).port}/graphql`;
      const res = await run(['schema', 'diff', url, file('new.graphql', NEW)]);
      expect(res).toMatchObject({
        code: 1,
        stderr: `ergraph: ${url}: introspection answered HTTP 307, a redirect to ${elsewhere}: the schema is read from the address given and nowhere else; give the address the server means\n`,
      });
      expect(reachedElsewhere).toBe(0);
    } finally {
      await new Promise((resolve) => moving.close(resolve));
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('names the file, line and column of a bad schema, and a file that is missing', async () => {
    const bad = await run(['schema', 'diff', file('bad.graphql', 'type Query {\n  a: \n}\n'), file('new.graphql', NEW)]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^ergraph: .*bad\.graphql:3:1: Syntax Error: Expected Name, found "}"\.\n$/);
    const missing = await run(['schema', 'diff', join(dir, 'nope.graphql'), file('new.graphql', NEW)]);
    expect(missing.stderr).toBe(`ergraph: schema file not found: ${join(dir, 'nope.graphql')}\n`);
    const notIntrospection = await run(['schema', 'diff', file('x.json', '{"data": {"user": 1}}'), file('new.graphql', NEW)]);
    expect(notIntrospection.stderr).toMatch(/x\.json is not an introspection result \(no __schema\)/);
  });

  it('with --usage, downgrades a breaking change on a measured field nobody used to dangerous', async () => {
    const usage = `pglite:${join(dir, 'usage')}`;
    const store = await openUsageStore(usage);
    const day = 86_400_000;
    const since = Date.now() - 60 * day;
    await store.track(['Query.userGetAll', 'Query.userById', 'Query.taskById'].map((coordinate) => ({ coordinate, replacement: 'X.y', since })));
    const at = Date.now() - 2 * day;
    await store.add([{ coordinate: 'Query.userGetAll', client: 'web', day: new Date(at).toISOString().slice(0, 10), count: 3, firstSeen: at, lastSeen: at }]);
    await store.close();

    const res = await run(['schema', 'diff', file('old.graphql', OLD), file('new.graphql', NEW), '--usage', usage, '--format', 'json']);
    expect(res.code).toBe(1); // userGetAll is still used, and User.email is not measured
    const result = JSON.parse(res.stdout);
    const level = (path: string) => result.changes.find((c: { path: string }) => c.path === path);
    expect(level('Query.userGetAll')).toMatchObject({ level: 'breaking', safeBasedOnUsage: false });
    expect(level('User.email')).toMatchObject({ level: 'breaking', safeBasedOnUsage: false });
    expect(level('Query.taskById')).toMatchObject({ level: 'dangerous', safeBasedOnUsage: true, message: "Field 'taskById' was removed from object type 'Query' (non-breaking based on usage)" });
    expect(level('Query.userById.strict')).toMatchObject({ level: 'dangerous', safeBasedOnUsage: true });
    expect(result).toMatchObject({ breaking: 2, dangerous: 2, safe: 1 });

    // Removing only what nobody used passes the check.
    const onlyUnused = OLD.replace('  taskById(id: Int!): String\n', '');
    const pass = await run(['schema', 'diff', file('old.graphql', OLD), file('unused.graphql', onlyUnused), '--usage', usage]);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain("! Field 'taskById' was removed from object type 'Query' (non-breaking based on usage)");
  }, 60_000);

  it('refuses a usage database it cannot read rather than calling every field unused', async () => {
    const res = await run(['schema', 'diff', file('old.graphql', OLD), file('new.graphql', NEW), '--usage', 'postgres://postgres@127.0.0.1:1/x', '--timeout', '1000']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^ergraph: cannot read usage from PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:1\/x: .*ECONNREFUSED/);
  });
});
