/**
 * `createCompatHandler`: the v5 flat schema served over a v6 handler. Each document is parsed,
 * validated against the flat schema and planned once (cached by its text); a request then costs
 * one v6 execution plus re-keying the root of the result.
 */
import {
  GraphQLError,
  Source,
  execute as executeLocally,
  print,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { CHECKED_ELSEWHERE, OperationGuard, type OperationLimits } from '../src/graphql/limits.js';
import { DocumentCache } from '../src/graphql/document-cache.js';
import { selectOperation } from '../src/graphql/compile.js';
import { describeTarget, type FlatTarget } from './flat-index.js';
import { catalogEntry, type CatalogEntry, type PersistedUse } from './catalog.js';
import { buildFlatSchema, CompatConfigError } from './flat-schema.js';
import { buildLocationMap, type LocationMap } from './locations.js';
import { persistedQueries, type PersistedQueries, type PersistedQueryOptions } from './persisted.js';
import { mapError, planOperation, v5Data, type OperationPlan } from './rewrite.js';
import { shadowForms, shadowRunner, type ShadowForm, type ShadowOptions, type ShadowRunner } from './shadow.js';
import { createUsageRecorder, type UsageRecorder } from './usage-recorder.js';
import { retirementReport, type RetirementReport, type RetirementReportOptions } from './usage-report.js';
import { migrationKit, type MigrationKit, type MigrationKitOptions } from './kit.js';
import { memoryUsageStore, type TrackedCoordinate } from './usage-store.js';

export interface ExecuteOptions {
  context?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  operationName?: string | null;
  /** Who sent the request, for the usage counters (the HTTP app reads it from a header). */
  client?: string;
  /** The request's `extensions` (e.g. `persistedQuery`), as the HTTP layer received them. */
  extensions?: Record<string, unknown> | null;
  /** A persisted document's id sent instead of `query` (`documentId`, or a Relay client's `doc_id`). */
  documentId?: string | null;
  /** Cancels the v6 run when it aborts (the HTTP request's signal: the client went away). */
  signal?: AbortSignal;
  /**
   * With `shadow` on: settles once the answer has been sent (`compatApp` passes the end of the
   * HTTP response). Called only when the request is sampled; its shadow run starts after it.
   * Default: the turn of the event loop after `execute` resolved.
   */
  responded?: () => PromiseLike<unknown>;
}

export interface ExecutionResponse {
  data: Record<string, unknown> | null;
  errors: GraphQLFormattedError[] | null;
}

/** What the compat layer needs from the v6 engine; `GraphQLHandler` satisfies it. */
export interface V6Handler {
  schema: GraphQLSchema;
  execute(
    query: string,
    opts?: {
      context?: Record<string, unknown>;
      variables?: Record<string, unknown>;
      operationName?: string;
      /** `GraphQLHandler` takes per-call limits; compat turns off what it checked on the flat document. */
      limits?: OperationLimits;
      signal?: AbortSignal;
    },
  ): Promise<ExecutionResponse>;
  /** A `GraphQLHandler`'s options: compat takes its `limits` when given none of its own. */
  readonly options?: { readonly limits?: OperationLimits };
}

/** One v5 root field a request used and what replaces it in v6. */
export interface Deprecation {
  /** Schema coordinate of the v5 field, e.g. `Query.userGetAll`. */
  field: string;
  /** The v6 method, `<Entity>.<method>`. */
  replacement: string;
  entity: string;
  method: string;
  /** The grouped selection to use instead, e.g. `{ User { getAll } }`. */
  usage: string;
}

export interface CompatHandlerOptions {
  /** How many distinct document texts keep their parsed and planned form (default 1000, least recently used out first). */
  cacheSize?: number;
  /** Memory those documents may hold, estimated (default 32 MiB): a few huge documents cannot fill it. */
  cacheBytes?: number;
  /**
   * What one v5 document may ask (depth, aliases, tokens, directives, cost), checked on the flat
   * document as sent; default: the v6 handler's `limits` (on by default, see `DEFAULT_LIMITS`).
   */
  limits?: OperationLimits;
  /**
   * Where use per v5 field × client × day is counted (default: this process's memory). For a
   * durable, fleet-wide count: `createUsageRecorder(sqlUsageStore(db))`.
   */
  usage?: UsageRecorder;
  /**
   * Persisted queries (on by default): Automatic Persisted Queries (`extensions.persistedQuery`)
   * with a bounded store of registered documents, and `mapping`, the old id → document file
   * `ergraph-migrate v5-to-v6` writes beside a rewritten manifest. `false`: requests using the
   * extension are answered `PersistedQueryNotSupported`.
   */
  persisted?: PersistedQueryOptions | false;
  /**
   * Shadow runs (off by default): after a sampled v5 query is answered, its v6 form — the text
   * `ergraph-migrate v5-to-v6` writes — runs with the same variables and context and the answers
   * are compared as `verify` does; the verdict goes into the operation catalog. E.g. `{ sample: 0.01 }`.
   */
  shadow?: ShadowOptions;
}

export interface CompatHandler {
  /** The v5 flat schema (introspection answers from it). */
  readonly schema: GraphQLSchema;
  /** `query` may be absent when `opts.extensions.persistedQuery` names the document. */
  execute(query: string | undefined, opts?: ExecuteOptions): Promise<ExecutionResponse>;
  /** Like `execute`, also naming the v5 fields the operation used and their v6 replacements. */
  executeWithDeprecations(
    query: string | undefined,
    opts?: ExecuteOptions,
  ): Promise<{ response: ExecutionResponse; deprecations: Deprecation[] }>;
  /** The persisted documents this handler serves (old ids from the mapping, APQ registrations). */
  readonly persisted: PersistedQueries;
  /** The usage recorder this handler counts into (flush it or close it at shutdown). */
  readonly usage: UsageRecorder;
  /** Shadow runs: their counters, and `idle()` (e.g. before closing the recorder at shutdown). */
  readonly shadow: ShadowRunner;
  /** The retirement report from the usage store, after writing what this process has pending. */
  report(options?: Omit<RetirementReportOptions, 'recorder'>): Promise<RetirementReport>;
  /** One client's migration kit from the operation catalog, after writing what this process has pending. */
  kit(options: MigrationKitOptions): Promise<MigrationKit>;
  /** Names the v5 fields a document's operation uses, without running it (`[]` if it does not validate). */
  deprecationsOf(query: string, operationName?: string | null): Deprecation[];
  /**
   * The kind of operation a document would run (for GET, which may run queries only), read from
   * the same cached parse as execution; undefined when the document does not parse or validate,
   * or names no single operation — execution then reports why, and runs nothing.
   */
  operationKind(query: string, operationName?: string | null): OperationDefinitionNode['operation'] | undefined;
}

interface PreparedOperation {
  plan: OperationPlan;
  v6Query: string | null;
  locations: () => LocationMap | null;
  deprecations: Deprecation[];
  coordinates: string[];
  /** The operation as the catalog keeps it, built on its first request. */
  catalog: () => CatalogEntry;
  /** Its v6 form as sent (literals and all), for shadow runs: built on the first sampled request. */
  shadowForm: () => ShadowForm | null;
}

type Prepared =
  | { errors: GraphQLFormattedError[] }
  | {
      source: Source;
      document: DocumentNode;
      /** Prepared operations by requested `operationName` ('' for none): only names the document holds. */
      operations: Map<string, PreparedOperation>;
      /** The document's v6 forms, per operation: one rewrite for all of them. */
      forms?: (operation: string | null) => ShadowForm | null;
    };

const failure = (errors: readonly (GraphQLError | GraphQLFormattedError)[]): ExecutionResponse => ({
  data: null,
  errors: errors.map((e) => (e instanceof GraphQLError ? e.toJSON() : e)),
});

function deprecationOf(target: FlatTarget, rootName: string): Deprecation {
  const selection = `{ ${target.entity} { ${target.method} } }`;
  return {
    field: `${rootName}.${target.flatName}`,
    replacement: describeTarget(target),
    entity: target.entity,
    method: target.method,
    usage: target.operation === 'mutation' ? `mutation ${selection}` : selection,
  };
}

/** Every flat field this schema serves, for the usage store's list of tracked coordinates. */
function trackedFields(flat: ReturnType<typeof buildFlatSchema>): TrackedCoordinate[] {
  const tracked: TrackedCoordinate[] = [];
  for (const root of [flat.schema.getQueryType(), flat.schema.getMutationType()]) {
    if (!root) continue;
    const targets = root === flat.schema.getMutationType() ? flat.targets.mutation : flat.targets.query;
    for (const target of targets.values()) {
      const d = deprecationOf(target, root.name);
      tracked.push({ coordinate: d.field, replacement: d.replacement, usage: d.usage });
    }
  }
  return tracked;
}

export function createCompatHandler(handler: V6Handler, options: CompatHandlerOptions = {}): CompatHandler {
  const flat = buildFlatSchema(handler.schema);
  const rootNames = new Set(
    [flat.schema.getQueryType()?.name, flat.schema.getMutationType()?.name].filter((n): n is string => !!n),
  );
  const cache = new DocumentCache<Prepared>(options.cacheBytes, options.cacheSize ?? 1000);
  const usage = options.usage ?? createUsageRecorder(memoryUsageStore(), { flushIntervalMs: 1000 });
  usage.track(trackedFields(flat));
  const keepsCatalog = typeof usage.store.readOperations === 'function';
  if (options.shadow && !keepsCatalog) {
    throw new CompatConfigError('shadow runs record their verdicts in the operation catalog: give a usage store that keeps one (memoryUsageStore, sqlUsageStore)');
  }
  const shadow = shadowRunner(handler, usage, options.shadow);
  const guard = new OperationGuard(options.limits ?? handler.options?.limits);
  const persisted = persistedQueries(options.persisted);

  function prepare(query: string): Prepared {
    const hit = cache.get(query);
    if (hit) return hit;
    let prepared: Prepared;
    const source = new Source(query);
    try {
      const document = guard.parse(source);
      const errors = validate(flat.schema, document);
      prepared = errors.length > 0 ? { errors: errors.map((e) => e.toJSON()) } : { source, document, operations: new Map() };
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      prepared = { errors: [error.toJSON()] };
    }
    cache.set(query, prepared);
    return prepared;
  }

  function prepareOperation(
    prepared: Extract<Prepared, { document: DocumentNode }>,
    operationName: string | null | undefined,
  ): PreparedOperation | GraphQLError {
    const cacheKey = operationName ?? '';
    const cached = prepared.operations.get(cacheKey);
    if (cached) return cached;
    const operation = selectOperation(prepared.document, operationName);
    // Not kept: only the document's own operations are, so names a client invents add nothing.
    if (operation instanceof GraphQLError) return operation;
    const plan = planOperation({ document: prepared.document, operation, targets: flat.targets, rootNames });
    const v6Query = plan.v6 ? print(plan.v6) : null;
    let locationMap: LocationMap | null | undefined;
    const rootName = (plan.kind === 'mutation' ? flat.schema.getMutationType() : flat.schema.getQueryType())?.name ?? '';
    const deprecations = plan.fields.map((t) => deprecationOf(t, rootName));
    const coordinates = deprecations.map((d) => d.field);
    let entry: CatalogEntry | undefined;
    let form: ShadowForm | null | undefined;
    const op: PreparedOperation = {
      plan,
      v6Query,
      // Built on the first error only: successful requests never pay for it.
      locations: () => {
        if (locationMap === undefined) {
          locationMap = plan.v6 && v6Query ? buildLocationMap(plan.v6, v6Query, prepared.source) : null;
        }
        return locationMap;
      },
      deprecations,
      coordinates,
      catalog: () => (entry ??= catalogEntry({ document: prepared.document, operation, fields: coordinates, schema: handler.schema, index: flat.index })),
      shadowForm: () => {
        if (form === undefined) {
          prepared.forms ??= shadowForms(prepared.document, prepared.source.body, handler.schema, flat.index);
          form = prepared.forms(operation.name?.value ?? null);
        }
        return form;
      },
    };
    prepared.operations.set(cacheKey, op);
    return op;
  }

  /**
   * The response; the operation's deprecations go to `seen` when it is given. (Returning both in
   * a pair cost `execute`, which wants only the response, a promise and a tick per request.)
   */
  async function run(sent: string | undefined, opts: ExecuteOptions, seen?: { deprecations: Deprecation[] }): Promise<ExecutionResponse> {
    const resolution = persisted.resolve(sent, opts.extensions, opts.documentId);
    if (resolution.kind === 'error')
      return failure([{ message: resolution.message, extensions: { code: resolution.code } }]);
    const query = resolution.query;
    if (query === undefined) return failure([{ message: "The request needs a 'query' string" }]);
    const prepared = prepare(query);
    if ('errors' in prepared) return failure(prepared.errors);
    // Only a document that parses and validates is remembered: a bad one would be refused anyway.
    if (resolution.kind === 'register') persisted.register(resolution.hash, query);
    const op = prepareOperation(prepared, opts.operationName);
    if (op instanceof GraphQLError) return failure([op]);
    const refused = guard.check(flat.schema, prepared.document, opts.operationName, opts.variables);
    if (refused.length) return failure(refused);
    const { plan } = op;
    const operation = plan.operation;
    if (seen) seen.deprecations = op.deprecations;
    const persistedUse: PersistedUse | undefined =
      resolution.kind === 'found' ? { id: resolution.id, v6Id: persisted.v6IdOf(resolution.id) ?? null } : resolution.kind === 'register' ? { id: resolution.hash } : undefined;
    usage.record(op.coordinates, opts.client, keepsCatalog && op.coordinates.length > 0 ? op.catalog() : undefined, persistedUse);

    let local: Record<string, unknown> | undefined;
    let errors: GraphQLFormattedError[] = [];
    if (plan.local) {
      const result = await executeLocally({
        schema: flat.schema,
        document: plan.local,
        operationName: opts.operationName,
        variableValues: opts.variables,
        contextValue: opts.context,
      });
      // No data means the request itself failed (variables): v5 answered with these errors only.
      if (!result.data) return failure(result.errors ?? []);
      local = result.data as Record<string, unknown>;
      // One by one: a spread passes each error as a call argument, on the stack.
      for (const error of result.errors ?? []) errors.push(error.toJSON());
    }

    let grouped: Record<string, unknown> | null = null;
    if (op.v6Query) {
      // The client the v5 request named reaches the v6 run as `context.client` (unless the
      // context has one), so v6 observers such as `countDeprecatedUse` see who sent it.
      const context = opts.client !== undefined && !(opts.context && 'client' in opts.context) ? { ...opts.context, client: opts.client } : opts.context;
      const result = await handler.execute(op.v6Query, {
        context,
        variables: opts.variables,
        operationName: operation.name?.value,
        // The flat document passed the limits above; its grouped form has one more level and an
        // alias per renamed root field, so the v6 handler's own static checks would misjudge it.
        limits: CHECKED_ELSEWHERE,
        signal: opts.signal,
      });
      const v6Errors = (result.errors ?? []).map((e) => mapError(e, plan, op.locations));
      // A null that reached a v6 group would have reached the v5 root as well.
      if (result.data === null || result.data === undefined) return shadowed(op, opts, context, { data: null, errors: [...v6Errors, ...errors] });
      grouped = result.data;
      errors = v6Errors.concat(errors);
      return shadowed(op, opts, context, { data: v5Data(plan, grouped, local), errors: errors.length > 0 ? errors : null });
    }
    return { data: v5Data(plan, grouped, local), errors: errors.length > 0 ? errors : null };
  }

  /** The answer, once offered for a shadow run (queries only; sampled, bounded, after it is sent). */
  function shadowed(op: PreparedOperation, opts: ExecuteOptions, context: Record<string, unknown> | undefined, response: ExecutionResponse): ExecutionResponse {
    if (op.plan.kind === 'query' && shadow.sampled()) {
      const { client, variables, operationName, responded } = opts;
      shadow.offer({ entry: op.catalog(), form: op.shadowForm, client, variables, context, operationName: operationName ?? undefined, response, responded });
    }
    return response;
  }

  return {
    schema: flat.schema,
    execute: (query, opts = {}) => run(query, opts),
    async executeWithDeprecations(query, opts = {}) {
      const seen = { deprecations: [] as Deprecation[] };
      const response = await run(query, opts, seen);
      return { response, deprecations: seen.deprecations };
    },
    usage,
    shadow,
    persisted,
    async report(options = {}) {
      await usage.flush();
      return retirementReport(usage.store, { ...options, recorder: usage.status() });
    },
    async kit(options) {
      await usage.flush();
      return migrationKit(usage.store, options);
    },
    deprecationsOf(query, operationName) {
      const prepared = prepare(query);
      if ('errors' in prepared) return [];
      const op = prepareOperation(prepared, operationName);
      return op instanceof GraphQLError ? [] : op.deprecations;
    },
    operationKind(query, operationName) {
      const prepared = prepare(query);
      if ('errors' in prepared) return undefined;
      const op = prepareOperation(prepared, operationName);
      return op instanceof GraphQLError ? undefined : op.plan.operation.operation;
    },
  };
}
