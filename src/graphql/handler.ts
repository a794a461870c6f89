/**
 * `GraphQLHandler`: the v6 schema of a diagram and its executor. Each `execute` is one run: one
 * loader pool (shared with `resolveTree` for response models) and one level scheduler.
 */
import {
  GraphQLError,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import { graphiqlHtml, type GraphiqlOptions } from './graphiql.js';
import type { SchemaOptions } from './registry.js';
import { OperationGuard, type OperationLimits } from './limits.js';
import { formatError, logToConsole, newErrorId, type ErrorLogger } from './masking.js';
import type { Timings } from '../resolver/tracing.js';
import { DocumentCache, planCost } from './document-cache.js';
import { defaultExecutor, PreparedDocument, runDocument, type ExecutorKind } from './engine.js';
import { createRun } from './run.js';
import { adoptForeignContexts } from './foreign.js';
import { buildExecutableSchema, type BuiltSchema, type SchemaContribution } from './schema.js';
import { groupedValidationRules } from './validation.js';
import { recordOperation } from '../telemetry/metrics.js';
import { classLabel } from '../er/names.js';

/**
 * What a federation-capable handler passes on to its `autoQueryConfig`. The SQL integration
 * (`AutoQueryConfig` of `ergraph/orm`) implements `DiagramExtension`; the core only knows this shape.
 */
export interface DiagramExtensionOptions {
  /** The Drizzle schema module (tables + relations) the generated queries read. */
  base?: Record<string, unknown>;
  /** The database a request runs on, given the request context. */
  sessionFactory?: (context?: Record<string, unknown>) => unknown;
  serviceName?: string;
}

export interface DiagramExtension {
  /** A new diagram whose entities carry extra root queries. */
  extend(diagram: ErDiagram, options: DiagramExtensionOptions): ErDiagram;
}

export interface GraphQLHandlerOptions extends SchemaOptions, DiagramExtensionOptions {
  /** Convert method results that are not instances of the declared model with `new Model(value)`. */
  enableFromAttributeInTypeAdapter?: boolean;
  /** `new AutoQueryConfig({ defaultLimit, generateById })` from `ergraph/orm`. */
  autoQueryConfig?: DiagramExtension;
  /**
   * What one operation may ask (depth, aliases, tokens, directives, cost: checked before it runs) and
   * take while it runs (`timeout` in ms, `resultValues`); on by default, see `DEFAULT_LIMITS`.
   */
  limits?: OperationLimits;
  /**
   * Gets every error kept from clients — any a method, loader or the database threw that is not a
   * `GraphQLError` — with the id the client was given instead of its text. Default: console.error.
   */
  onError?: ErrorLogger;
  /**
   * `'compiled'` (default): each operation is compiled once into a plan run level by level.
   * `'graphql-js'`: graphql-js's resolver walk, the reference the compiled executor is tested
   * against. `ERGRAPH_EXECUTOR=graphql-js` changes the default.
   */
  executor?: ExecutorKind;
  /** Memory the parsed and compiled documents may hold, estimated (default 32 MiB). */
  documentCacheBytes?: number;
  /** Per-level and per-loader timings in each response's `extensions.timings`. */
  debug?: boolean;
}

/** Relationships that can tell whether they support pagination (SQL ones: lists need an order). */
interface PaginationAware {
  assertPaginable?(where: string): void;
}

export interface ExecuteOptions {
  /** Given to query/mutation methods as their second parameter, and to `Context()` in resolvers. */
  context?: Record<string, unknown>;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  /**
   * Limits for this call instead of the handler's: for a caller that already checked the
   * document in another shape (the v5 compat layer checks the flat document it was sent). Pass
   * one long-lived object: its checks are kept per document.
   */
  limits?: OperationLimits;
  /** Timings in this response's `extensions.timings` (default: the handler's `debug`). */
  debug?: boolean;
  /**
   * Cancels the operation when it aborts (e.g. the HTTP request's signal: the client went away):
   * no further level or loader batch starts, loaders' `signal` aborts (SQL statements in flight
   * are cancelled on node-postgres and postgres.js), and the answer is `data: null` with an
   * `OPERATION_CANCELLED` error.
   */
  signal?: AbortSignal;
}

export interface ExecutionResponse {
  data: Record<string, unknown> | null;
  /** `null` when there are none. */
  errors: GraphQLFormattedError[] | null;
  /** Only when timings were asked for (`debug`). */
  extensions?: { timings: Timings };
}

/**
 * The options of `handler.federate()`. Declared empty here and filled in by `ergraph/federation`
 * (module augmentation with its `FederateOptions`), so the core names nothing of federation.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FederationOptions {}

/** What `handler.federate()` runs: federation provides it when its module loads. */
export type Federator = (handler: GraphQLHandler, options: FederationOptions) => Promise<void>;

let federator: Federator | undefined;

/** The extension point behind `handler.federate()`; `ergraph/federation` calls it once, on load. */
export function provideFederation(fn: Federator): void {
  federator = fn;
}

const ROOT = Object.freeze({});

/** One operation about to run: it parsed, validated and passed the limits. */
export interface OperationEvent {
  /** The schema it runs on (federation may have rebuilt it since startup). */
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName: string | null | undefined;
  /** The request context given to `execute` (e.g. with the client's name). */
  context: Record<string, unknown> | undefined;
}

/** Called synchronously, once per operation, before it runs; what it throws goes to `onError`, never to the client. */
export type OperationListener = (event: OperationEvent) => void;

export class GraphQLHandler {
  readonly diagram: ErDiagram;
  readonly options: Readonly<GraphQLHandlerOptions>;
  private built: BuiltSchema;
  /** Parsed, validated and compiled documents by query text: clients send the same few queries over and over. */
  private readonly documents: DocumentCache<PreparedDocument>;
  private readonly executor: ExecutorKind;
  private readonly guard: OperationGuard;
  /** Per-call limits merged over the handler's, and their guard: made once per limits object. */
  private readonly callLimits = new WeakMap<OperationLimits, { merged: OperationLimits; guard: OperationGuard }>();
  private readonly listeners = new Set<OperationListener>();

  constructor(diagram: ErDiagram, options: GraphQLHandlerOptions = {}) {
    const { autoQueryConfig, base, sessionFactory, serviceName } = options;
    if (autoQueryConfig && typeof autoQueryConfig.extend !== 'function') {
      throw new ConfigError('autoQueryConfig must be an AutoQueryConfig (an object with extend(diagram, options))');
    }
    this.diagram = autoQueryConfig ? autoQueryConfig.extend(diagram, { base, sessionFactory, serviceName }) : diagram;
    this.options = { ...options };
    this.guard = new OperationGuard(options.limits);
    this.documents = new DocumentCache(options.documentCacheBytes);
    this.executor = options.executor ?? defaultExecutor();
    if (options.enablePagination) {
      // Fail at startup, not on the first paginated request.
      for (const entity of this.diagram.entities) {
        for (const rel of entity.relationships as readonly PaginationAware[]) {
          rel.assertPaginable?.(`${classLabel(entity.kls)}.${(rel as { name?: string }).name}`);
        }
      }
    }
    this.built = this.build([]);
  }

  private build(contributions: readonly SchemaContribution[]): BuiltSchema {
    const built = buildExecutableSchema(this.diagram, this.options, contributions);
    // For executors other than ours, which pass their own context (see foreign.ts).
    adoptForeignContexts(built.schema, (context) =>
      createRun(this.diagram, context, {
        fromAttributes: this.options.enableFromAttributeInTypeAdapter ?? false,
        resultTypes: built.resultTypes,
        budget: this.options.limits,
      }),
    );
    return built;
  }

  get schema(): GraphQLSchema {
    return this.built.schema;
  }

  /** Rebuild the schema with extra contributions (e.g. federation's remote fields and roots). */
  extendSchema(contributions: readonly SchemaContribution[]): void {
    this.built = this.build(contributions);
    this.documents.clear();
  }

  /** Validation rules of this schema: the standard ones plus the grouped-shape errors of spec 7. */
  validationRules(): ValidationRule[] {
    return groupedValidationRules(this.built.groups);
  }

  private limitsFor(limits: OperationLimits): { merged: OperationLimits; guard: OperationGuard } {
    let entry = this.callLimits.get(limits);
    if (!entry) {
      // Keys the call leaves out keep the handler's values.
      const merged = { ...this.options.limits, ...limits };
      this.callLimits.set(limits, (entry = { merged, guard: new OperationGuard(merged) }));
    }
    return entry;
  }

  private guardFor(limits: OperationLimits | undefined): OperationGuard {
    return limits ? this.limitsFor(limits).guard : this.guard;
  }


  /** Parse (within the token limit) and validate, or return the errors a client should see (`data: null`). */
  prepare(query: string | DocumentNode, limits?: OperationLimits): { document: DocumentNode } | ExecutionResponse {
    const prepared = this.prepared(query, limits);
    return prepared instanceof PreparedDocument ? { document: prepared.document } : prepared;
  }

  private prepared(query: string | DocumentNode, limits?: OperationLimits): PreparedDocument | ExecutionResponse {
    const cached = typeof query === 'string' ? this.documents.get(query) : undefined;
    if (cached) return cached;
    let document: DocumentNode;
    try {
      document = typeof query === 'string' ? this.guardFor(limits).parse(query) : query;
    } catch (error) {
      if (error instanceof GraphQLError) return { data: null, errors: [error.toJSON()] };
      throw error;
    }
    const errors = validate(this.schema, document, this.validationRules());
    if (errors.length) return { data: null, errors: errors.map((e) => e.toJSON()) };
    if (typeof query !== 'string') return new PreparedDocument(document);
    // Plans past the first (other `@skip`/`@include` combinations) are charged to the entry.
    const prepared = new PreparedDocument(document, (p) => this.documents.charge(query, p, planCost(query)));
    this.documents.set(query, prepared);
    return prepared;
  }

  async execute(query: string | DocumentNode, options: ExecuteOptions = {}): Promise<ExecutionResponse> {
    const prepared = this.prepared(query, options.limits);
    if (!(prepared instanceof PreparedDocument)) return prepared;
    const refused = this.guardFor(options.limits).check(this.schema, prepared.document, options.operationName, options.variables);
    if (refused.length) return { data: null, errors: refused.map((e) => e.toJSON()) };
    if (this.listeners.size) this.notify(prepared.document, options);
    const startedAt = performance.now();
    const run = createRun(this.diagram, options.context, {
      fromAttributes: this.options.enableFromAttributeInTypeAdapter ?? false,
      resultTypes: this.built.resultTypes,
      budget: options.limits ? this.limitsFor(options.limits).merged : this.options.limits,
      debug: options.debug ?? this.options.debug,
      signal: options.signal,
      startedAt,
    });
    let result;
    try {
      result = await runDocument(this.schema, prepared, run, {
        executor: this.executor,
        rootValue: ROOT,
        variables: options.variables,
        operationName: options.operationName,
      });
    } catch (error) {
      run.trace.end({}, error);
      throw error;
    } finally {
      run.budget.dispose();
    }
    const errors = result.errors?.length ? result.errors.map((e) => formatError(e, this.options.onError ?? logToConsole)) : null;
    // The span is the server's: it gets the error's own text, not the masked one the client sees.
    const timings = run.trace.end({ 'graphql.errors': errors?.length ?? 0 }, result.errors?.length ? result.errors[0]!.message : undefined);
    const response: ExecutionResponse = { data: (result.data as Record<string, unknown> | null | undefined) ?? null, errors };
    if (timings) response.extensions = { timings };
    return recordOperation(prepared.document, options.operationName, startedAt, response);
  }

  /**
   * Observe every operation this handler runs (through any surface: HTTP, MCP, the v5 compat
   * layer), e.g. to count use of deprecated fields (`countDeprecatedUse` in `ergraph/compat`).
   * Returns the function that stops observing.
   */
  onOperation(listener: OperationListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private notify(document: DocumentNode, options: ExecuteOptions): void {
    const event: OperationEvent = { schema: this.schema, document, operationName: options.operationName, context: options.context };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // An observer's failure is the operator's to see, never the request's.
        (this.options.onError ?? logToConsole)(error, newErrorId());
      }
    }
  }

  /**
   * Mount other services (`ergraph/federation`): pull their ER graphs, validate, add the remote
   * fields to this schema, freeze. Federation plugs itself in here when `ergraph/federation` is
   * loaded (which declaring remote relationships does); the core does not import it.
   */
  async federate(options: FederationOptions): Promise<void> {
    if (!federator) {
      throw new ConfigError("handler.federate() is provided by ergraph/federation: import it first (import 'ergraph/federation')");
    }
    await federator(this, options);
  }

  /** The GraphiQL page; `graphqlApp` serves it with its assets from the installed packages. */
  getGraphiqlHtml(options: GraphiqlOptions = {}): string {
    return graphiqlHtml(options);
  }
}
