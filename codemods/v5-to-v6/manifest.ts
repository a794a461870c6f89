/**
 * Persisted-query manifests: the JSON files that hold a client's documents by id, so the server
 * can run an operation the client names by id only. Two shapes are known, told apart by their
 * content (never by the file name):
 *
 * - Apollo's persisted query list: `{ "format": "apollo-persisted-query-manifest", "version": 1,
 *   "operations": [{ "id": sha256(body), "name", "type", "body" }] }`. A rewritten operation gets
 *   the id of its new body, as Apollo's tooling would compute it.
 * - Relay's `persisted_queries.json`: `{ "<id>": "<document>" }`. Ids are whatever the user's
 *   compiler used (md5, sha1, ...), and Relay clients send them as `doc_id`: the ids stay, only
 *   the documents change.
 *
 * Each rewritten operation adds `"<old id>": { "id", "body", "v5Body" }` to the mapping file next
 * to the manifest (`<name>.v6-map.json`): `id`/`body` are what v6 clients now send, `v5Body` is
 * what old clients meant by the old id — the compat endpoint runs it for them (it speaks v5, so it
 * needs the v5 document, not the v6 one). Only string values change, in place: everything else in
 * the file (key order, spacing, other operations) stays byte-identical.
 */
import { basename, dirname, join } from 'node:path';
import { GraphQLError, Kind, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { applyEdits, type Edit } from '../../compat/v6-form/edits.js';
import { lineColumn, ts } from '../lib/parse.js';
import { ParseError, type CompanionFile, type ManifestFormat, type ManifestSummary, type ManualItem, type TransformResult } from '../types.js';
import { sha256Hex, type PersistedMappingEntry } from '../../compat/persisted.js';
import { chooseSchema, selectsRootFields } from '../../compat/v6-form/choose.js';
import { describeMove, rewriteDocument } from '../../compat/v6-form/document.js';

export type { ManifestFormat, ManifestSummary, CompanionFile };

export const APOLLO_MANIFEST_FORMAT = 'apollo-persisted-query-manifest';

// The mapping's entries are `compat/persisted.ts`'s `PersistedMappingEntry`: the file this step
// writes is the file the compat endpoint reads, so its shape is declared once, by the reader.
export type { PersistedMapping, PersistedMappingEntry } from '../../compat/persisted.js';
export { sha256Hex };

/** `persisted-query-manifest.json` → `persisted-query-manifest.v6-map.json`, in the same directory. */
export function mappingFileOf(manifest: string): string {
  return join(dirname(manifest), `${basename(manifest).replace(/\.json$/i, '')}.v6-map.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function definesOperation(text: string): boolean {
  try {
    return parse(text).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION);
  } catch {
    return false;
  }
}

/**
 * Cheap test on the text first (most JSON files in a tree are package.json and friends), then the
 * shape. A Relay map needs at least one value that parses as a GraphQL operation, so a
 * `{ "key": "text" }` file of another kind is not taken for one: more than half of its values must
 * parse as documents with an operation.
 */
export function manifestFormat(text: string): ManifestFormat | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  const apollo = text.includes(APOLLO_MANIFEST_FORMAT);
  if (!apollo && !/:\s*"\s*(?:query|mutation|subscription|fragment|\{)/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value.format === APOLLO_MANIFEST_FORMAT) return 'apollo';
  const entries = Object.values(value);
  if (entries.length === 0 || !entries.every((v) => typeof v === 'string')) return undefined;
  // Most, not all: a manifest with one broken document is still one (and that document is reported).
  return entries.filter((v) => definesOperation(v as string)).length * 2 > entries.length ? 'relay' : undefined;
}

/** One operation as written in the manifest: where its strings sit, so edits replace only them. */
interface Located {
  id: string;
  body: string;
  /** The node whose position the report names. */
  at: ts.Node;
  idNode?: ts.StringLiteral;
  bodyNode: ts.StringLiteral;
  name?: string;
}

const keyOf = (p: ts.ObjectLiteralElementLike): string | undefined =>
  ts.isPropertyAssignment(p) && (ts.isStringLiteral(p.name) || ts.isIdentifier(p.name)) ? p.name.text : undefined;

function property(object: ts.ObjectLiteralExpression, key: string): ts.Expression | undefined {
  // JSON.parse keeps the last of duplicate keys; so does this.
  let found: ts.Expression | undefined;
  for (const p of object.properties) if (keyOf(p) === key && ts.isPropertyAssignment(p)) found = p.initializer;
  return found;
}

function rootObject(sf: ts.JsonSourceFile): ts.ObjectLiteralExpression | undefined {
  const expression = sf.statements[0]?.expression;
  return expression && ts.isObjectLiteralExpression(expression) ? expression : undefined;
}

function locateApollo(sf: ts.JsonSourceFile, file: string, value: Record<string, unknown>): Located[] {
  const bad = (why: string) =>
    new ParseError(file, `an Apollo persisted query manifest (format "${APOLLO_MANIFEST_FORMAT}") needs ${why}; left unchanged`);
  if (value.version !== 1) throw bad(`"version": 1 (this one has ${JSON.stringify(value.version)}); ergraph-migrate knows version 1 only`);
  const operations = property(rootObject(sf)!, 'operations');
  if (!operations || !ts.isArrayLiteralExpression(operations)) throw bad('an "operations" array');
  return operations.elements.map((element, i) => {
    const id = ts.isObjectLiteralExpression(element) ? property(element, 'id') : undefined;
    const body = ts.isObjectLiteralExpression(element) ? property(element, 'body') : undefined;
    if (!id || !body || !ts.isStringLiteral(id) || !ts.isStringLiteral(body))
      throw bad(`string "id" and "body" in every operation (operations[${i}] has not)`);
    const name = property(element as ts.ObjectLiteralExpression, 'name');
    return { id: id.text, body: body.text, at: element, idNode: id, bodyNode: body, name: name && ts.isStringLiteral(name) ? name.text : undefined };
  });
}

function locateRelay(sf: ts.JsonSourceFile): Located[] {
  const out: Located[] = [];
  for (const p of rootObject(sf)!.properties) {
    const id = keyOf(p);
    if (id === undefined || !ts.isPropertyAssignment(p) || !ts.isStringLiteral(p.initializer)) continue;
    out.push({ id, body: p.initializer.text, at: p, bodyNode: p.initializer });
  }
  return out;
}

function operationName(document: DocumentNode): string | undefined {
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION && d.name) return d.name.value;
  return undefined;
}

/** The next step for an operation left as is, ending every manual reason of a manifest. */
const LEFT_AS_IS =
  'the operation was left as is (same id, same document): fix its document where the client defines it, regenerate the manifest and rerun `ergraph-migrate v5-to-v6` on it';

/** Rewrites the operations of a manifest; `undefined` when the text is not a manifest. */
export function applyToManifest(
  source: string,
  file: string,
  schemas: readonly GraphQLSchema[],
  keepResponseKeys: boolean,
  /** What a document waits for without a schema (the step's one wording of it). */
  noSchemaNextStep: string,
): (TransformResult & { manifest: ManifestSummary; companions: CompanionFile[] }) | undefined {
  const format = manifestFormat(source);
  if (!format) return undefined;
  const sf = ts.parseJsonText(file, source);
  const value = JSON.parse(source) as Record<string, unknown>;
  const operations = format === 'apollo' ? locateApollo(sf, file, value) : locateRelay(sf);
  const manual: ManualItem[] = [];
  const pending: ManualItem[] = [];
  const notForThisApi: ManualItem[] = [];
  const notes: string[] = [];
  const edits: Edit[] = [];
  const mapping: Record<string, PersistedMappingEntry> = {};
  const mapped = new Set<string>();
  for (const op of operations) {
    const where = lineColumn(sf, op.at.getStart(sf));
    let document: DocumentNode;
    try {
      document = parse(op.body);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      manual.push({ ...where, reason: `persisted operation ${op.id}: its document does not parse (${error.message}); ${LEFT_AS_IS}` });
      continue;
    }
    const label = `persisted operation ${op.name ?? operationName(document) ?? '(anonymous)'} (id ${op.id})`;
    if (schemas.length === 0) {
      if (selectsRootFields(document)) pending.push({ ...where, reason: `${label}: ${noSchemaNextStep}` });
      continue;
    }
    const choice = chooseSchema(document, schemas);
    if (choice === 'foreign') {
      notForThisApi.push({ ...where, reason: `${label}: none of its root fields belongs to the v6 schema: not for this API, left alone` });
      continue;
    }
    if (!choice) continue;
    const rewrite = rewriteDocument(document, op.body, choice.schema, choice.index, { keepResponseKeys });
    if (rewrite.problems.length > 0) {
      // Half a rewrite is a document neither v5 nor v6 can run: the whole operation stays.
      for (const problem of rewrite.problems) manual.push({ ...where, reason: `${label}: ${problem.reason}; ${LEFT_AS_IS}` });
      continue;
    }
    if (rewrite.edits.length === 0) continue;
    const body = applyEdits(op.body, rewrite.edits);
    const id = format === 'apollo' ? sha256Hex(body) : op.id;
    edits.push({ start: op.bodyNode.getStart(sf), end: op.bodyNode.getEnd(), text: JSON.stringify(body) });
    if (op.idNode) edits.push({ start: op.idNode.getStart(sf), end: op.idNode.getEnd(), text: JSON.stringify(id) });
    if (!mapped.has(op.id)) mapping[op.id] = { id, body, v5Body: op.body };
    mapped.add(op.id);
    for (const move of rewrite.moves) notes.push(`${file}:${where.line}: ${label}: ${describeMove(move)}`);
  }
  const rewritten = mapped.size;
  const mappingFile = mappingFileOf(file);
  const summary: ManifestSummary = { format, operations: operations.length, rewritten, ...(rewritten > 0 ? { mapping: mappingFile } : {}) };
  const output = applyEdits(source, edits);
  return {
    output: output === source ? source : output,
    manual,
    notes,
    pending,
    notForThisApi,
    manifest: summary,
    companions: rewritten > 0 ? [{ file: mappingFile, json: mapping }] : [],
  };
}
