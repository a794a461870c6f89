/** GraphQL v6: the grouped schema of an ER diagram, its executor and the GraphiQL page. */
export { GraphQLHandler } from './handler.js';
export type { GraphQLHandlerOptions, ExecuteOptions, ExecutionResponse, OperationEvent, OperationListener } from './handler.js';
export { SchemaBuilder, buildExecutableSchema } from './schema.js';
export type { SchemaContribution, BuiltSchema } from './schema.js';
export type { SchemaOptions, ObjectFieldsContribution, TypeRegistry } from './registry.js';
export type { GroupInfo } from './operations.js';
export { groupTypeName, resultTypeName } from './names.js';
export { apolloTypePolicies, graphcacheKeys } from './client-caches.js';
export { GraphQLDateTime, GraphQLJSON, GraphQLBigInt } from './scalars.js';
export { graphiqlHtml, GRAPHIQL_ASSETS } from './graphiql.js';
export type { GraphiqlOptions, GraphiqlSchema } from './graphiql.js';
export type { Run } from './run.js';
export { DEFAULT_LIMITS, LIMIT_CODES, OperationGuard } from './limits.js';
export type { OperationLimits } from './limits.js';
export { estimateCost } from './cost.js';
export type { CostEstimate } from './cost.js';
