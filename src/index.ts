/**
 * ergraph: describe entities and relationships once; get batched loading, GraphQL, use-case
 * routes, federation and MCP tools from that one graph.
 */
export { ConfigError, LoaderError } from './er/errors.js';
export { model, exclude, serialization, jsonSchema, isModelClass, isModelInstance, modelFields } from './er/model.js';
export type { ModelClass, ModelInstance, ModelInput, AnyModelClass, Serializable } from './er/model.js';
export { Annotated, ref, describeField } from './er/schema.js';
export type { Marker, FieldInfo } from './er/schema.js';
export { query, mutation, QueryConfig, MutationConfig, getReturnType } from './er/operations.js';
export type { Operation, OperationOptions, Returns } from './er/operations.js';
export { Relationship } from './er/relationship.js';
export type {
  RelationshipOptions,
  TargetRef,
  LoaderRef,
  BatchLoadFn,
  LoaderClass,
  PageLoadFn,
  PageRequest,
  Page,
  LoaderInfo,
} from './er/relationship.js';
export { ErDiagram, Entity, baseEntity } from './er/diagram.js';
export { BatchPageConfig, PageOrder, OrderTerm } from './er/orders.js';
export type { BatchPageConfigOptions, Direction } from './er/orders.js';
export type { EntityInfo, ResolvedRelationship, EntityFamily, EntityOptions, EntityNameOptions } from './er/diagram.js';
export { buildObject, buildList } from './resolver/loaders.js';
export { Loader, Context, Parent, AncestorContext, Collector } from './resolver/depends.js';
export type { CollectorHandle, CollectorOptions } from './resolver/depends.js';
export { DefineSubset, SubsetConfig, AutoLoad, subsetOf } from './resolver/subset.js';
export type { SubsetClass, SubsetConfigOptions, ExposeMap, SendToMap } from './resolver/subset.js';
export { Resolver, configGlobalResolver, configResolver } from './resolver/resolver.js';
export type { ResolverOptions } from './resolver/resolver.js';
export type { LoaderOptions } from './resolver/pool.js';

// GraphQL v6: grouped schema, executor, GraphiQL page.
export {
  GraphQLHandler,
  SchemaBuilder,
  buildExecutableSchema,
  groupTypeName,
  resultTypeName,
  apolloTypePolicies,
  graphcacheKeys,
  GraphQLDateTime,
  GraphQLJSON,
  GraphQLBigInt,
  graphiqlHtml,
  GRAPHIQL_ASSETS,
  DEFAULT_LIMITS,
  LIMIT_CODES,
} from './graphql/index.js';
export type {
  GraphQLHandlerOptions,
  ExecuteOptions,
  ExecutionResponse,
  OperationEvent,
  OperationListener,
  SchemaContribution,
  BuiltSchema,
  SchemaOptions,
  ObjectFieldsContribution,
  TypeRegistry,
  GroupInfo,
  GraphiqlOptions,
  GraphiqlSchema,
  Run,
  OperationLimits,
} from './graphql/index.js';

// Schema checks: `ergraph schema print|diff` as functions.
export { schemaSdl, loadSchema, schemaDiff, formatSchemaDiff, SchemaSourceError } from './schema/index.js';
export type { LoadSchemaOptions, ChangeLevel, SchemaChange, SchemaDiffResult, SchemaDiffOptions } from './schema/index.js';

// The ER picture: `ergraph er` and the /er page as functions.
export { erPicture, erMermaid, erDot, erSvg, formatErPicture, ER_FORMATS, ER_PICTURE_FORMAT } from './picture/index.js';
export type {
  ErPicture,
  ErPictureOptions,
  ErEntity,
  ErField,
  ErOperation,
  ErRelationship,
  ErMember,
  ErService,
  ErServiceOperation,
  Cardinality,
  PictureServices,
  ErSvgOptions,
  ErFormat,
} from './picture/index.js';
