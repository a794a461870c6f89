/**
 * `GraphQLHandler`: the v6 schema of a diagram and its executor. Each `execute` is one run: one
 * loader pool (shared with `resolveTree` for response models) and one level scheduler.
 */
import {
  execute,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { FederateOptions } from '../federation/mount/federate.js';
import type { ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import { graphiqlHtml, type GraphiqlOptions } from './graphiql.js';
import type { SchemaOptions } from './registry.js';
import { createRun } from './run.js';
import { buildExecutableSchema, type BuiltSchema, type SchemaContribution } from './schema.js';
import { groupedValidationRules } from './validation.js';

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
}

export interface ExecutionResponse {
  data: Record<string, unknown> | null;
  /** `null` when there are none. */
  errors: GraphQLFormattedError[] | null;
}

const ROOT = Object.freeze({});
/** Parsed and validated documents by query text: clients send the same few queries over and over. */
const CACHE_LIMIT = 500;

export class GraphQLHandler {
  readonly diagram: ErDiagram;
  readonly options: Readonly<GraphQLHandlerOptions>;
  private built: BuiltSchema;
  private readonly documents = new Map<string, DocumentNode>();

  constructor(diagram: ErDiagram, options: GraphQLHandlerOptions = {}) {
    const { autoQueryConfig, base, sessionFactory, serviceName } = options;
    if (autoQueryConfig && typeof autoQueryConfig.extend !== 'function') {
      throw new ConfigError('autoQueryConfig must be an AutoQueryConfig (an object with extend(diagram, options))');
    }
    this.diagram = autoQueryConfig ? autoQueryConfig.extend(diagram, { base, sessionFactory, serviceName }) : diagram;
    this.options = { ...options };
    if (options.enablePagination) {
      // Fail at startup, not on the first paginated request.
      for (const entity of this.diagram.entities) {
        for (const rel of entity.relationships as readonly PaginationAware[]) {
          rel.assertPaginable?.(`${entity.kls.name}.${(rel as { name?: string }).name}`);
        }
      }
    }
    this.built = buildExecutableSchema(this.diagram, this.options);
  }

  get schema(): GraphQLSchema {
    return this.built.schema;
  }

  /** Rebuild the schema with extra contributions (e.g. federation's remote fields and roots). */
  extendSchema(contributions: readonly SchemaContribution[]): void {
    this.built = buildExecutableSchema(this.diagram, this.options, contributions);
    this.documents.clear();
  }

  /** Validation rules of this schema: the standard ones plus the grouped-shape errors of spec 7. */
  validationRules(): ValidationRule[] {
    return groupedValidationRules(this.built.groups);
  }

  /** Parse and validate, or return the errors a client should see (`data: null`). */
  prepare(query: string | DocumentNode): { document: DocumentNode } | ExecutionResponse {
    const cached = typeof query === 'string' ? this.documents.get(query) : undefined;
    if (cached) return { document: cached };
    let document: DocumentNode;
    try {
      document = typeof query === 'string' ? parse(query) : query;
    } catch (error) {
      if (error instanceof GraphQLError) return { data: null, errors: [error.toJSON()] };
      throw error;
    }
    const errors = validate(this.schema, document, this.validationRules());
    if (errors.length) return { data: null, errors: errors.map((e) => e.toJSON()) };
    if (typeof query === 'string') {
      if (this.documents.size >= CACHE_LIMIT) this.documents.clear();
      this.documents.set(query, document);
    }
    return { document };
  }

  async execute(query: string | DocumentNode, options: ExecuteOptions = {}): Promise<ExecutionResponse> {
    const prepared = this.prepare(query);
    if (!('document' in prepared)) return prepared;
    const run = createRun(this.diagram, options.context, {
      fromAttributes: this.options.enableFromAttributeInTypeAdapter ?? false,
      resultTypes: this.built.resultTypes,
    });
    const result = await execute({
      schema: this.schema,
      document: prepared.document,
      rootValue: ROOT,
      contextValue: run,
      variableValues: options.variables ?? undefined,
      operationName: options.operationName ?? undefined,
    });
    return {
      data: (result.data as Record<string, unknown> | null | undefined) ?? null,
      errors: result.errors?.length ? result.errors.map((e) => e.toJSON()) : null,
    };
  }

  /**
   * Mount other services (`ergraph/federation`): pull their ER graphs, validate, add the remote
   * fields to this schema, freeze. The federation module is loaded only when this is called.
   */
  async federate(options: FederateOptions): Promise<void> {
    const { federate } = await import('../federation/mount/federate.js');
    await federate(this, options);
  }

  /** The GraphiQL page; `graphqlApp` serves it with its assets from the installed packages. */
  getGraphiqlHtml(options: GraphiqlOptions = {}): string {
    return graphiqlHtml(options);
  }
}
