/** Reading fixture cases: `fixtures/<transform>/<case>/{input,expected}/**`. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';

/** Apollo Client's typings as far as the typed-result tests use them (their trees have no node_modules). */
export const APOLLO_TYPINGS = [
  "declare module '@apollo/client' {",
  '  export interface TypedDocumentNode<R = any, V = any> { kind: string; __apiType?: (variables: V) => R }',
  '  export function gql(strings: TemplateStringsArray, ...values: unknown[]): TypedDocumentNode;',
  '  export interface QueryResult<T> { data?: T; loading: boolean }',
  '  export function useQuery<T = any>(document: TypedDocumentNode<T>): QueryResult<T>;',
  '}',
].join('\n') + '\n';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** Every file under `dir` but a git repository's own data. */
export function walk(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name !== '.git')
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
}

export function readTree(dir: string): Map<string, string> {
  return new Map(walk(dir).map((file) => [relative(dir, file), readFileSync(file, 'utf8')]));
}

export interface FixtureCase {
  transform: string;
  name: string;
  input: Map<string, string>;
  expected: Map<string, string>;
}

export function fixtureCases(transform: string): FixtureCase[] {
  const root = join(FIXTURES, transform);
  return readdirSync(root)
    .sort()
    .map((name) => ({
      transform,
      name,
      input: readTree(join(root, name, 'input')),
      expected: readTree(join(root, name, 'expected')),
    }));
}

/** Every comment of a source text, so a test can check none was lost. */
export function comments(source: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  const found: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia)
      found.push(scanner.getTokenText());
  }
  return found;
}

/** A v5.5 ER graph declared with baseEntity(): what `v5-to-v6` loads to find the v6 schema. */
export const ENTITIES = `import { z } from 'zod';
import { baseEntity, model, query } from 'ergraph';

export const Base = baseEntity();

@Base.entity
export class Task extends model({ id: z.int(), title: z.string() }) {
  @query({ returns: () => [Task] })
  static async getAll() {
    return [];
  }
}
`;
