/**
 * The pages' browser assets (GraphiQL with its explorer plugin, Swagger UI), served by the app
 * itself: no CDN, so the pages work offline.
 *
 * They ship inside the package: `npm run build` copies each file below from the devDependency
 * that builds it into `dist/assets/<page>/<name>`. React, GraphiQL and Swagger UI are therefore
 * not runtime dependencies: installing ergraph resolves none of their peer ranges (the explorer
 * plugin's own dependency still asks for React <= 16) and fetches none of their trees. A source
 * checkout has no `dist/assets`; there the files are read from the devDependencies themselves.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';
import { GRAPHIQL_ASSETS } from '../graphql/graphiql.js';

export interface PageAsset {
  /** The package the file is built from (a devDependency of ergraph). */
  pkg: string;
  /** The file inside that package. */
  file: string;
  /** Its content type. */
  type: string;
}

/** The files Swagger UI's page loads (see `src/usecase/docs.ts`). */
export const SWAGGER_UI_ASSETS: Readonly<Record<string, PageAsset>> = {
  'swagger-ui.css': { pkg: 'swagger-ui-dist', file: 'swagger-ui.css', type: 'text/css' },
  'swagger-ui-bundle.js': { pkg: 'swagger-ui-dist', file: 'swagger-ui-bundle.js', type: 'text/javascript' },
  'swagger-ui-standalone-preset.js': { pkg: 'swagger-ui-dist', file: 'swagger-ui-standalone-preset.js', type: 'text/javascript' },
  'favicon-32x32.png': { pkg: 'swagger-ui-dist', file: 'favicon-32x32.png', type: 'image/png' },
};

/** Every shipped asset, by page: `dist/assets/<page>/<name>`. */
export const PAGE_ASSETS = { graphiql: GRAPHIQL_ASSETS, 'swagger-ui': SWAGGER_UI_ASSETS } as const;
export type Page = keyof typeof PAGE_ASSETS;

const require = createRequire(import.meta.url);
// dist/src/http/assets.js -> dist/assets; in a checkout (src/http/assets.ts) this folder does not exist.
const SHIPPED = fileURLToPath(new URL('../../assets/', import.meta.url));

/** Where the build reads an asset from: the file inside its (dev-)installed package. */
export function assetSource(asset: PageAsset): string {
  return join(dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file);
}

/** The path of a shipped asset inside the built package. */
export const shippedAssetPath = (page: Page, name: string) => join(SHIPPED, page, name);

/** The file holding an asset: the shipped copy, else (source checkout) the package's own file. */
export function pageAssetFile(page: Page, name: string): string | undefined {
  const asset = (PAGE_ASSETS[page] as Record<string, PageAsset>)[name];
  if (!asset || !Object.hasOwn(PAGE_ASSETS[page], name)) return undefined;
  const shipped = shippedAssetPath(page, name);
  if (existsSync(shipped)) return shipped;
  try {
    return assetSource(asset);
  } catch {
    throw new Error(`ergraph: the ${page} asset ${name} is missing from ${SHIPPED} (a source checkout needs npm install; a package needs npm run build)`);
  }
}

/** The absolute path of a GraphiQL asset. */
export const assetFile = (name: string): string | undefined => pageAssetFile('graphiql', name);

const cache = new Map<string, Promise<Buffer>>();

/** The bytes of an asset, read once per process. */
export function pageAssetBytes(file: string): Promise<Buffer> {
  let content = cache.get(file);
  if (!content) {
    content = readFile(file);
    cache.set(file, content);
    content.catch(() => cache.delete(file));
  }
  return content;
}

/** A response with a page asset, or undefined when `name` is not one. */
export async function pageAssetResponse(c: Context, page: Page, name: string): Promise<Response | undefined> {
  const file = pageAssetFile(page, name);
  if (!file) return undefined;
  const bytes = await pageAssetBytes(file);
  const type = (PAGE_ASSETS[page] as Record<string, PageAsset>)[name]!.type;
  return c.body(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Uint8Array<ArrayBuffer>, 200, {
    'content-type': type.startsWith('text/') ? `${type}; charset=utf-8` : type,
    'cache-control': 'public, max-age=86400',
  });
}

/** `GET <path>/assets/:file` of the GraphiQL page. */
export async function assetRoute(c: Context) {
  const name = c.req.param('file') ?? '';
  return (await pageAssetResponse(c, 'graphiql', name)) ?? c.text(`No GraphiQL asset named ${name}`, 404);
}
