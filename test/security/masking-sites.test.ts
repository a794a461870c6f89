/**
 * Every place that masks an error for a client (`maskedError` / `formatError` of
 * src/graphql/masking.ts) is reached by a test that makes that place fail and checks the client
 * sees an id and not the text. A new call site fails here until it is listed with its test.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Call site (file) → the test that makes it fail, and what that test checks the client got. */
const SITES: Record<string, { test: string; shows: RegExp }> = {
  'src/graphql/handler.ts': { test: 'test/security/defaults.test.ts', shows: /Internal server error \\\(error id/ },
  'src/graphql/masking.ts': { test: 'test/security/leaks.test.ts', shows: /error id/ },
  'src/mcp/server.ts': { test: 'test/mcp/tool-failure.test.ts', shows: /graphql_query failed: Internal server error/ },
  'src/mcp/graphql.ts': { test: 'test/mcp/tools.test.ts', shows: /a context function that throws refuses the call without its text/ },
  'src/federation/member/app.ts': { test: 'test/federation/dto-depth.test.ts', shows: /Internal server error \\\(error id/ },
  'src/usecase/router.ts': { test: 'test/usecase/router.test.ts', shows: /failed \(error id/ },
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('masking sites', () => {
  it('each call of maskedError/formatError is listed with the test that reaches it', () => {
    const calling = ['src', 'compat', 'codemods']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((file) => /\b(maskedError|formatError)\(/.test(readFileSync(file, 'utf8').replace(/export function (maskedError|formatError)\(/g, '')))
      .map((file) => relative(ROOT, file).split('\\').join('/'))
      .sort();
    expect(calling).toEqual(Object.keys(SITES).sort());
  });

  it.each(Object.entries(SITES))('%s is reached by %s', (_site, { test, shows }) => {
    expect(readFileSync(join(ROOT, test), 'utf8')).toMatch(shows);
  });
});
