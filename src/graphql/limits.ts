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
 *   lists by their effective page sizes (`estimateCost`, cost.ts).
 *
 * `OperationLimits` is a plain object type so other per-request budgets can join it.
 */
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  parse,
  validate,
  type Source,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { DEFAULT_BUDGET, type ExecutionBudget } from './budget.js';
import { selectOperation } from './compile.js';
import { DEFAULT_LIST_SIZE, estimateCost, fragmentsOf, type Variables } from './cost.js';

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
  listSize: DEFAULT_LIST_SIZE,
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
