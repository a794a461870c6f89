/**
 * Public names do not depend on the transpiler (issue 11.3). The fixture is compiled the way
 * consumers compile it — esbuild as tsx/vitest/Vite run it (no keepNames, unlike this repo's
 * vitest config), tsc, and SWC — each in standard and in experimentalDecorators mode, then run.
 * Every form that names its entities (`@Base.entity`, `Base.entity(C, { name })`,
 * `new Entity({ kls, name })`) gives the same schema, compat flat names and error messages as
 * tsc; a form that leaves a tool-made name (`_User`) gets a ConfigError naming the class.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync as swc } from '@swc/core';
import { transform as esbuild } from 'esbuild';
import { printSchema } from 'graphql';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ConfigError, type GraphQLHandler } from 'ergraph';
import { createCompatHandler } from 'ergraph/compat';
import { looksMangled } from '../../src/er/names.js';

const root = join(import.meta.dirname, '..', '..');
const source = readFileSync(join(import.meta.dirname, 'fixtures', 'transpiled-names.ts'), 'utf8');
const outDir = join(root, 'test-output', 'transpiled-names');

type Compile = (legacy: boolean) => Promise<string>;
const compilers: Record<string, Compile> = {
  esbuild: async (legacy) =>
    (
      await esbuild(source, {
        loader: 'ts',
        format: 'esm',
        target: 'es2022',
        tsconfigRaw: { compilerOptions: { experimentalDecorators: legacy } },
      })
    ).code,
  tsc: async (legacy) =>
    ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, experimentalDecorators: legacy },
    }).outputText,
  swc: async (legacy) =>
    swc(source, {
      filename: 'transpiled-names.ts',
      jsc: {
        target: 'es2022',
        parser: { syntax: 'typescript', decorators: true },
        transform: legacy ? { legacyDecorator: true } : { decoratorVersion: '2022-03' },
      },
    }).code,
};

interface Fixture {
  decorated(): GraphQLHandler;
  called(named: boolean): GraphQLHandler;
  external(named: boolean): GraphQLHandler;
  plain(): GraphQLHandler;
}

/** Compile, point the package imports at the sources (the same module instances as this test), import. */
async function load(compiler: string, legacy: boolean): Promise<Fixture> {
  const code = (await compilers[compiler]!(legacy))
    .replace(/from ["']ergraph["']/g, `from ${JSON.stringify(join(root, 'src', 'index.ts'))}`);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${compiler}-${legacy ? 'legacy' : 'standard'}.mjs`);
  writeFileSync(file, code);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Fixture;
}

/** What a client and a migrating team see of the names: schema, flat v5 names, error messages. */
async function surface(handler: GraphQLHandler) {
  const bare = await handler.execute('{ User }');
  const unknown = await handler.execute('{ User { nope { id } } }');
  const data = await handler.execute('{ User { getAll { name tasks { title } } } }');
  return {
    sdl: printSchema(handler.schema),
    flat: Object.keys(createCompatHandler(handler).schema.getQueryType()!.getFields()).sort(),
    flatMutations: Object.keys(createCompatHandler(handler).schema.getMutationType()!.getFields()).sort(),
    errors: [...(bare.errors ?? []), ...(unknown.errors ?? [])].map((e) => e.message),
    data: data.data,
  };
}

const reference = await load('tsc', false).then((f) => surface(f.decorated()));

describe('the reference (tsc, standard decorators)', () => {
  it('names the entities as written', () => {
    expect(reference.sdl).toMatch(/^type User \{/m);
    expect(reference.sdl).toMatch(/^type UserQuery \{/m);
    expect(reference.sdl).toMatch(/^type TaskMutation \{/m);
    expect(reference.sdl).not.toMatch(/_User|_Task/);
    expect(reference.flat).toEqual(['userGetAll']);
    expect(reference.flatMutations).toEqual(['taskCreate']);
    expect(reference.errors.join('\n')).toMatch(/User/);
    expect(reference.data).toEqual({ User: { getAll: [{ name: 'Ada', tasks: [{ title: 'Write' }] }] } });
  });
});

for (const compiler of Object.keys(compilers)) {
  for (const legacy of [false, true]) {
    describe(`${compiler}, ${legacy ? 'experimentalDecorators' : 'standard decorators'}`, async () => {
      const fixture = await load(compiler, legacy);

      it('@Base.entity, Base.entity(C, { name }) and new Entity({ kls, name }) give the reference names', async () => {
        for (const handler of [fixture.decorated(), fixture.called(true), fixture.external(true)]) {
          expect(await surface(handler)).toEqual(reference);
        }
      });

      it('without a name, a class renamed by the transpiler is a ConfigError naming it, never a _User type', async () => {
        for (const build of [() => fixture.called(false), () => fixture.external(false)]) {
          let outcome: Awaited<ReturnType<typeof surface>> | Error;
          try {
            outcome = await surface(build());
          } catch (error) {
            outcome = error as Error;
          }
          if (compiler === 'esbuild') {
            // esbuild renames User to _User when User's own decorators mention it (both modes).
            expect(outcome).toBeInstanceOf(ConfigError);
            expect((outcome as Error).message).toMatch(/class '_User'/);
            expect((outcome as Error).message).toMatch(/Base\.entity\(Cls, \{ name: 'User' \}\)/);
          } else {
            expect(outcome).toEqual(reference);
          }
        }
      });

      it('a class whose decorators do not mention it keeps its name in every form', async () => {
        expect(printSchema(fixture.plain().schema)).toMatch(/^type NoteQuery \{/m);
      });
    });
  }
}

describe('looksMangled', () => {
  it('flags tool-made names and keeps written ones', () => {
    for (const name of ['', '_User', '_User2', '$e', 'User$1', 'e', 'nt']) expect(looksMangled(name), name).toBe(true);
    for (const name of ['User', 'A', 'X', 'TaskItem', 'HTTPRequest', 'user']) expect(looksMangled(name), name).toBe(false);
  });
});
