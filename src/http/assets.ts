/**
 * GraphiQL's assets, read from the installed packages (never a CDN: the page works offline).
 * Package files are found through each package's `package.json`, since their `exports` maps
 * do not expose the UMD bundles.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'hono';
import { GRAPHIQL_ASSETS } from '../graphql/graphiql.js';

const require = createRequire(import.meta.url);
const cache = new Map<string, Promise<Buffer>>();

/** The absolute path of an asset inside its installed package. */
export function assetFile(name: string): string | undefined {
  const asset = GRAPHIQL_ASSETS[name];
  if (!asset) return undefined;
  return join(dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file);
}

export async function assetRoute(c: Context) {
  const name = c.req.param('file') ?? '';
  const file = assetFile(name);
  if (!file) return c.text(`No GraphiQL asset named ${name}`, 404);
  let content = cache.get(file);
  if (!content) {
    content = readFile(file);
    cache.set(file, content);
    content.catch(() => cache.delete(file));
  }
  const bytes = await content;
  return c.body(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>, 200, {
    'content-type': `${GRAPHIQL_ASSETS[name]!.type}; charset=utf-8`,
    'cache-control': 'public, max-age=86400',
  });
}
