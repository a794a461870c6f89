/**
 * The seam for counting deprecated v6 fields in the same usage store as v5 fields. The recorder
 * takes any schema coordinate; these two functions find the deprecated ones:
 *
 * ```ts
 * const usage = createUsageRecorder(sqlUsageStore(db));
 * usage.track(deprecatedFields(handler.schema));                        // once, at startup
 * usage.record(deprecatedCoordinates(handler.schema, document), client); // per operation: the one-line hook
 * ```
 *
 * `countDeprecatedUse(handler, usage)` does both for a `GraphQLHandler`, for every operation it
 * runs. The report, the page, the metrics and `schema diff --usage` then cover those fields as well.
 */
import { Kind, TypeInfo, separateOperations, visit, visitWithTypeInfo, isObjectType, isInterfaceType, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { GraphQLHandler } from '../src/graphql/handler.js';
import type { UsageRecorder } from './usage-recorder.js';
import type { TrackedCoordinate } from './usage-store.js';

const perDocument = new WeakMap<DocumentNode, WeakMap<GraphQLSchema, string[]>>();

/** Coordinates (`Type.field`, `Type.field.argument`) of deprecated fields and arguments the document selects. Cached per document. */
export function deprecatedCoordinates(schema: GraphQLSchema, document: DocumentNode): string[] {
  const cached = perDocument.get(document)?.get(schema);
  if (cached) return cached;
  const found = new Set<string>();
  const info = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(info, {
      Field() {
        const parent = info.getParentType();
        const field = info.getFieldDef();
        if (parent && field?.deprecationReason != null) found.add(`${parent.name}.${field.name}`);
      },
      Argument() {
        const parent = info.getParentType();
        const field = info.getFieldDef();
        const arg = info.getArgument();
        if (parent && field && arg?.deprecationReason != null) found.add(`${parent.name}.${field.name}.${arg.name}`);
      },
    }),
  );
  const coordinates = [...found];
  let bySchema = perDocument.get(document);
  if (!bySchema) perDocument.set(document, (bySchema = new WeakMap()));
  bySchema.set(schema, coordinates);
  return coordinates;
}

/** Every deprecated field of the schema, its deprecation reason as the "replacement" the report shows. */
export function deprecatedFields(schema: GraphQLSchema): TrackedCoordinate[] {
  const tracked: TrackedCoordinate[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.deprecationReason != null) tracked.push({ coordinate: `${type.name}.${field.name}`, replacement: field.deprecationReason });
    }
  }
  return tracked;
}

export interface CountDeprecatedUseOptions {
  /** The client's name, read from the request context (default: `context.client` when it is a string). */
  client?: (context: Record<string, unknown> | undefined) => string | null | undefined;
}

const clientFromContext = (context: Record<string, unknown> | undefined) =>
  typeof context?.client === 'string' ? context.client : undefined;

const operations = new WeakMap<DocumentNode, Record<string, DocumentNode>>();

/**
 * The part of a document one operation runs (it and the fragments it spreads), the same object
 * each time so `deprecatedCoordinates` finds it in its cache: a document of several operations
 * must not count the fields of the ones that did not run.
 */
function executedPart(document: DocumentNode, operationName: string | null | undefined): DocumentNode {
  if (document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length < 2) return document;
  let parts = operations.get(document);
  if (!parts) operations.set(document, (parts = separateOperations(document)));
  return parts[operationName ?? ''] ?? document;
}

/**
 * Count every use of a deprecated field or argument of `handler`'s schema in `usage`, per client:
 * tracks the deprecated fields now (so the report lists them while unused) and records the ones
 * each operation selects. Returns the function that stops counting.
 */
export function countDeprecatedUse(
  handler: Pick<GraphQLHandler, 'schema' | 'onOperation'>,
  usage: UsageRecorder,
  options: CountDeprecatedUseOptions = {},
): () => void {
  let tracked = handler.schema;
  usage.track(deprecatedFields(tracked));
  const clientOf = options.client ?? clientFromContext;
  return handler.onOperation(({ schema, document, operationName, context }) => {
    if (schema !== tracked) {
      // Rebuilt (federation adds fields): its deprecated fields are tracked too.
      tracked = schema;
      usage.track(deprecatedFields(schema));
    }
    const used = deprecatedCoordinates(schema, executedPart(document, operationName));
    if (used.length) usage.record(used, clientOf(context));
  });
}
