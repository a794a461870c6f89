/**
 * One step on one file, as jscodeshift hands files over (`transforms/<step>.js`): the runner's own
 * run over a tree of that one file, so the edits, the `TODO(ergraph-migrate)` markers and the
 * check that the output parses are the CLI's. What only a whole run knows becomes a marker naming
 * `ergraph-migrate`: the v6 schema it finds from the project (`alone`), and persisted-query
 * manifests, which are JSON (no comment to mark them with) and get a mapping file written beside.
 */
import { resolve } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { findTransform } from '../registry.js';
import { runMigration } from '../runner/run.js';
import type { TransformOptions } from '../types.js';
import { loadSchema } from '../v5-to-v6/schema.js';

export interface FileAnswer {
  /** The file's new text; the same text when nothing changed. */
  output: string;
  /** Lines for jscodeshift's report (`api.report`). */
  reports: string[];
}

/** `--schema=<sdl|introspection.json|url>` given to jscodeshift, loaded once per worker. */
const schemas = new Map<string, Promise<GraphQLSchema>>();
function schemaOf(spec: string): Promise<GraphQLSchema> {
  const where = /^https?:\/\//i.test(spec) ? spec : resolve(spec);
  let found = schemas.get(where);
  if (!found) schemas.set(where, (found = loadSchema(where)));
  return found;
}

export async function migrateFile(step: string, path: string, source: string, schema?: string): Promise<FileAnswer> {
  const transform = findTransform(step);
  if (!transform) throw new Error(`ergraph-migrate has no step ${step}`);
  if (path.toLowerCase().endsWith('.json')) {
    return { output: source, reports: ['JSON (a persisted-query manifest?) left as is: `npx ergraph-migrate v5-to-v6 <paths>` rewrites manifests and writes the old id → new document mapping beside them'] };
  }
  const options: TransformOptions = { alone: true, ...(schema ? { schema: await schemaOf(schema) } : {}) };
  const file = resolve(path);
  const report = await runMigration({ transforms: [transform], paths: [file], dryRun: true, gitignore: false, workers: 0, options });
  const mine = report.files.find((r) => !r.companionOf);
  if (!mine) return { output: source, reports: [] };
  if (mine.error) throw new Error(mine.error);
  // jscodeshift read the file a moment before the run did: a file changed in between is not guessed at.
  if (mine.before !== source) throw new Error(`${path} changed on disk while jscodeshift read it: run again`);
  return { output: mine.after, reports: [] };
}
