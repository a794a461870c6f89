/**
 * Operation limits: what one GraphQL document may ask of the server, checked before anything
 * executes, on every surface that runs documents (`graphqlApp`, the v5 compat layer, MCP's
 * `graphql_query`/`graphql_mutation`, federation members all go through a handler's limits).
 *
 * - `tokens`: graphql-js's own `maxTokens` parse option (it stops the lexer early, so a huge
 *   document costs no more than the limit). GraphQL Armor's max-tokens is a parser replacement
 *   for envelop rather than a validation rule, and it throws errors of whichever graphql copy it
 *   `require`s; graphql-js 16 does the same job in place.
 * - `depth`, `aliases`, `directives`, `complexity`: GraphQL Armor's validation rules
 *   (`@escape.tech/graphql-armor-*`), used as plain graphql-js rules: they report through
 *   `onReject` instead of throwing, and the report is re-made here with a code.
 * - `cost`: the estimated number of fields the operation resolves, multiplying through nested
 *   lists by their effective page sizes. Armor's cost-limit only multiplies by literal `first` /
 *   `last` arguments and knows nothing of a relationship's `defaultPageSize` / `maxPageSize`, of
 *   root methods' `limit`, or of variables, so this one is written here (see `estimateCost`).
 *
 * `OperationLimits` is a plain object type so other per-request budgets can join it.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  parse,
  validate,
  type Source,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { DEFAULT_BUDGET, type ExecutionBudget } from './budget.js';
import { selectOperation } from './compile.js';

/**
 * Per-handler limits; `false` turns one off. Every key has a default (`DEFAULT_LIMITS`). The static
 * ones are checked before an operation runs; the budget (`timeout`, `resultValues`) while it runs.
 */
export interface OperationLimits extends ExecutionBudget {
  /** Deepest field nesting (introspection's `__schema` not counted). */
  depth?: number | false;
  /** Aliased fields in one operation. */
  aliases?: number | false;
  /** Lexical tokens in the document, checked while parsing. */
  tokens?: number | false;
  /** Directives in one operation. */
  directives?: number | false;
  /** Estimated fields resolved, multiplied through list fields by their page sizes (see `estimateCost`). */
  cost?: number | false;
  /** GraphQL Armor's structural cost (fields weighted by depth); a guard for documents `cost` cannot size. */
  complexity?: number | false;
  /** The size `cost` assumes for a list field nothing bounds (no page size, no `limit`, no key list). */
  listSize?: number;
}

export const DEFAULT_LIMITS = Object.freeze({
  depth: 15,
  aliases: 30,
  tokens: 2000,
  directives: 50,
  cost: 50_000,
  complexity: 20_000,
  listSize: 5,
  ...DEFAULT_BUDGET,
} satisfies Required<OperationLimits>);

/** `extensions.code` of each limit's error. */
export const LIMIT_CODES = {
  depth: 'DEPTH_LIMIT_EXCEEDED',
  aliases: 'ALIAS_LIMIT_EXCEEDED',
  tokens: 'TOKEN_LIMIT_EXCEEDED',
  directives: 'DIRECTIVE_LIMIT_EXCEEDED',
  cost: 'COST_LIMIT_EXCEEDED',
  complexity: 'COMPLEXITY_LIMIT_EXCEEDED',
} as const;

type LimitName = keyof typeof LIMIT_CODES;

/**
 * Field extension read by `estimateCost`: a field serving pages of a relationship
 * (`limit` capped at `max`, `default` when omitted). Set by the schema builder.
 */
export interface PageSizeExtension {
  pageSize?: { default: number; max: number };
}

const limitOf = (limits: OperationLimits | undefined, name: LimitName): number | false => {
  const value = limits?.[name];
  return value === undefined ? DEFAULT_LIMITS[name] : value;
};

function limitError(name: LimitName, max: number, found: number | undefined, detail: string): GraphQLError {
  return new GraphQLError(`${detail.replace(/\.$/, '')} (limits.${name})`, {
    extensions: { code: LIMIT_CODES[name], limit: name, max, ...(found === undefined ? {} : { found }) },
  });
}

/** Options for graphql-js `parse`: the token limit. */
export function parseOptions(limits: OperationLimits | undefined): { maxTokens?: number } {
  const tokens = limitOf(limits, 'tokens');
  return tokens === false ? {} : { maxTokens: tokens };
}

const TOKENS_MESSAGE = /Document contains more th(?:an|at) (\d+) tokens/;

/** Parse with the token limit; a document over it gets a `TOKEN_LIMIT_EXCEEDED` error. Throws `GraphQLError`. */
export function parseDocument(source: string | Source, limits: OperationLimits | undefined): DocumentNode {
  try {
    return parse(source, parseOptions(limits));
  } catch (error) {
    const match = error instanceof Error ? TOKENS_MESSAGE.exec(error.message) : null;
    if (match) throw limitError('tokens', Number(match[1]), undefined, `Token limit of ${match[1]} exceeded: the document is too long`);
    throw error;
  }
}

/** Armor reports "Syntax Error: <message>"; the message part, without that misleading prefix. */
const armorMessage = (error: { message: string }) => error.message.replace(/^Syntax Error:\s*/, '');
const FOUND = /found (\d+(?:\.\d+)?)/;

function armorRule(
  name: LimitName,
  rule: (options: Record<string, unknown>) => ValidationRule,
  options: Record<string, unknown>,
  max: number,
): ValidationRule {
  return rule({
    ...options,
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: { message: string }) => {
        const found = FOUND.exec(error.message);
        context?.reportError(limitError(name, max, found ? Math.ceil(Number(found[1])) : undefined, armorMessage(error)));
      },
    ],
  });
}

/** The validation rules of the structural limits (depth, aliases, directives, complexity). */
export function limitRules(limits: OperationLimits | undefined): ValidationRule[] {
  const rules: ValidationRule[] = [];
  const depth = limitOf(limits, 'depth');
  if (depth !== false) rules.push(armorRule('depth', maxDepthRule as never, { n: depth }, depth));
  const aliases = limitOf(limits, 'aliases');
  if (aliases !== false) rules.push(armorRule('aliases', maxAliasesRule as never, { n: aliases }, aliases));
  const directives = limitOf(limits, 'directives');
  if (directives !== false) rules.push(armorRule('directives', maxDirectivesRule as never, { n: directives }, directives));
  const complexity = limitOf(limits, 'complexity');
  if (complexity !== false) rules.push(armorRule('complexity', costLimitRule as never, { maxCost: complexity }, complexity));
  return rules;
}

// ---------------------------------------------------------------------------------------------
// Page-size-aware cost

type Variables = Readonly<Record<string, unknown>> | null | undefined;

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Variables;
  defaults: ReadonlyMap<string, ValueNode>;
  listSize: number;
  /** Set when a size came from a variable: the estimate then holds for these variables only. */
  readVariable: boolean;
  /** Unit cost of a fragment by `<name>|<parent type>|<inherited page>`: linear in document size. */
  memo: Map<string, number>;
}

function numberValue(walk: Walk, node: ValueNode | undefined): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    walk.readVariable = true;
    const value = walk.variables?.[node.name.value];
    if (typeof value === 'number') return value;
    if (value === undefined) return numberValue(walk, walk.defaults.get(node.name.value));
  }
  return undefined;
}

function listLength(walk: Walk, node: ValueNode): number | undefined {
  if (node.kind === Kind.LIST) return node.values.length;
  if (node.kind === Kind.VARIABLE) {
    walk.readVariable = true;
    const value = walk.variables?.[node.name.value];
    if (Array.isArray(value)) return value.length;
    const fallback = walk.defaults.get(node.name.value);
    return fallback?.kind === Kind.LIST ? fallback.values.length : undefined;
  }
  return undefined;
}

/** The `limit` a field runs with: the argument (or its schema default), a page field's default, capped at its max. */
function pageLimit(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined {
  const pageSize = (field.extensions as PageSizeExtension | undefined)?.pageSize;
  const arg = node.arguments?.find((a) => a.name.value === 'limit');
  let limit = numberValue(walk, arg?.value);
  if (limit === undefined) {
    const declared = field.args.find((a) => a.name === 'limit')?.defaultValue;
    if (typeof declared === 'number') limit = declared;
  }
  if (pageSize) return Math.min(Math.max(limit ?? pageSize.default, 0), pageSize.max);
  return limit === undefined ? undefined : Math.max(limit, 0);
}

/** The longest list argument (federation's `by_<key>_in(values)`: one result per key). */
function keyCount(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined {
  let longest: number | undefined;
  for (const arg of node.arguments ?? []) {
    const declared = field.args.find((a) => a.name === arg.name.value);
    if (!declared || !isListType(getNullableType(declared.type))) continue;
    const length = listLength(walk, arg.value);
    if (length !== undefined) longest = Math.max(longest ?? 0, length);
  }
  return longest;
}

function selectionCost(walk: Walk, set: SelectionSetNode, type: GraphQLNamedType, page: number | undefined): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (walk.schema.getType(selection.typeCondition.name.value) ?? type) : type;
      total += selectionCost(walk, selection.selectionSet, on, page);
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      if (!fragment) continue;
      const key = `${fragment.name.value}|${type.name}|${page ?? ''}`;
      let unit = walk.memo.get(key);
      if (unit === undefined) {
        const on = walk.schema.getType(fragment.typeCondition.name.value) ?? type;
        unit = selectionCost(walk, fragment.selectionSet, on, page);
        walk.memo.set(key, unit);
      }
      total += unit;
    } else {
      total += fieldCost(walk, selection, type, page);
    }
  }
  return total;
}

function fieldCost(walk: Walk, node: FieldNode, parent: GraphQLNamedType, page: number | undefined): number {
  const name = node.name.value;
  // Introspection answers from the schema (bounded by its size); `__typename` is free.
  if (name.startsWith('__')) return name === '__typename' ? 0 : 1;
  if (!isObjectType(parent) && !isInterfaceType(parent)) return 1;
  const field = parent.getFields()[name];
  if (!field) return 1;
  if (!node.selectionSet) return 1;
  const limit = pageLimit(walk, field, node);
  let count = 1;
  let inner: number | undefined = limit;
  if (isListType(getNullableType(field.type))) {
    const keys = keyCount(walk, field, node);
    if (keys !== undefined) count = keys; // one result per key; `limit` sizes the lists inside
    else {
      count = limit ?? page ?? walk.listSize;
      inner = undefined;
    }
  }
  return 1 + count * selectionCost(walk, node.selectionSet, getNamedType(field.type), inner);
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return fragments;
}

export interface CostEstimate {
  cost: number;
  /** Whether the estimate read a variable (so it holds for these variable values only). */
  variableDependent: boolean;
}

/**
 * The estimated number of fields an operation resolves. Each selected field counts 1; a list
 * field multiplies its selection by its size: a relationship page's effective limit (`limit`
 * capped at the field's `maxPageSize`, `defaultPageSize` when omitted), a method's `limit`
 * argument (or its declared default), the number of keys of a batch root, else `listSize`. So
 * `comments(limit: 100) { items { author { comments(limit: 100) { items { id } } } } }` costs
 * about 100 × (1 + 1 + 100) and the cyclic documents that exhaust memory are refused before any
 * loader runs.
 */
export function estimateCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Variables,
  listSize: number = DEFAULT_LIMITS.listSize,
): CostEstimate {
  const root = schema.getRootType(operation.operation);
  if (!root) return { cost: 0, variableDependent: false };
  const defaults = new Map<string, ValueNode>();
  for (const def of operation.variableDefinitions ?? []) if (def.defaultValue) defaults.set(def.variable.name.value, def.defaultValue);
  const walk: Walk = { schema, fragments, variables, defaults, listSize, readVariable: false, memo: new Map() };
  const cost = selectionCost(walk, operation.selectionSet, root, undefined);
  return { cost, variableDependent: walk.readVariable };
}

/** Every static limit off: for a document already checked in another shape (compat's rewritten v5 documents). */
export const CHECKED_ELSEWHERE: OperationLimits = Object.freeze({
  depth: false,
  aliases: false,
  tokens: false,
  directives: false,
  complexity: false,
  cost: false,
});

/**
 * The limits of one handler, applied to a parsed and validated document before it runs: the
 * structural rules once per document, the cost per request (kept per document and operation
 * when it read no variable, so a repeated query pays for its walk once).
 */
export class OperationGuard {
  readonly limits: Readonly<OperationLimits>;
  private readonly rules: ValidationRule[];
  private readonly maxCost: number | false;
  private readonly listSize: number;
  private readonly structural = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  private readonly costs = new WeakMap<DocumentNode, Map<string, number>>();

  constructor(limits: OperationLimits = {}) {
    this.limits = Object.freeze({ ...limits });
    this.rules = limitRules(limits);
    this.maxCost = limitOf(limits, 'cost');
    this.listSize = limits.listSize ?? DEFAULT_LIMITS.listSize;
  }

  /** Parse with this guard's token limit (throws `GraphQLError`). */
  parse(source: string | Source): DocumentNode {
    return parseDocument(source, this.limits);
  }

  /** The errors refusing an operation (empty when it is within every limit). */
  check(
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Variables,
  ): readonly GraphQLError[] {
    let errors = this.structural.get(document);
    if (!errors) {
      errors = this.rules.length ? validate(schema, document, this.rules) : [];
      this.structural.set(document, errors);
    }
    if (errors.length) return errors;
    const cost = this.costError(schema, document, operationName, variables);
    return cost ? [cost] : [];
  }

  private costError(
    schema: GraphQLSchema,
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Variables,
  ): GraphQLError | undefined {
    if (this.maxCost === false) return undefined;
    const key = operationName ?? '';
    let cost = this.costs.get(document)?.get(key);
    if (cost === undefined) {
      const selected = selectOperation(document, operationName);
      // Execution reports a missing or ambiguous operation.
      const operation = selected instanceof GraphQLError ? undefined : selected;
      if (!operation) return undefined;
      const estimate = estimateCost(schema, operation, fragmentsOf(document), variables, this.listSize);
      cost = estimate.cost;
      if (!estimate.variableDependent) {
        let byName = this.costs.get(document);
        if (!byName) this.costs.set(document, (byName = new Map()));
        byName.set(key, cost);
      }
    }
    if (cost <= this.maxCost) return undefined;
    const found = Math.ceil(cost);
    return limitError(
      'cost',
      this.maxCost,
      found,
      `Cost limit of ${this.maxCost} exceeded, found about ${found}: the operation would resolve that many fields, lists multiplied by their page sizes; ask for smaller pages or fewer nested lists`,
    );
  }
}
