/**
 * A rewritten document checked against the v6 schema before it is kept. The rewrite moves root
 * fields into their groups and keeps everything else as written, so a v5 argument or field the v6
 * method no longer has (`getAll(status: OPEN)` when v6 `getAll` has no `status`) would otherwise
 * be written as a document the server refuses. Such a document stays as it was, with a TODO.
 */
import {
  FieldsOnCorrectTypeRule,
  GraphQLError,
  Kind,
  KnownArgumentNamesRule,
  KnownTypeNamesRule,
  OverlappingFieldsCanBeMergedRule,
  parse,
  ProvidedRequiredArgumentsRule,
  ScalarLeafsRule,
  validate,
  ValuesOfCorrectTypeRule,
  VariablesInAllowedPositionRule,
  type ASTVisitFn,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type Source,
  type ValidationContext,
} from 'graphql';
import { applyEdits, type Edit } from '../../compat/v6-form/edits.js';
import type { DocumentRewrite } from '../../compat/v6-form/document.js';
import { append } from '../lib/append.js';
import { parseableText } from './embedded.js';

/**
 * The rules that judge the document on its own. Those about fragments and variables declared
 * elsewhere (`KnownFragmentNames`, `NoUndefinedVariables`, `NoUnusedFragments`) are left out: a
 * `.graphql` file or a template may use fragments of another file, which is not a fault.
 */
const RULES = [
  FieldsOnCorrectTypeRule,
  KnownArgumentNamesRule,
  KnownTypeNamesRule,
  ProvidedRequiredArgumentsRule,
  ValuesOfCorrectTypeRule,
  ScalarLeafsRule,
  OverlappingFieldsCanBeMergedRule,
  variablesInAllowedPosition,
];

/**
 * graphql-js's `VariablesInAllowedPositionRule` for operations that declare variables. The rule
 * walks each operation a second time to find its variables' uses, a visit of its own that
 * allocates ~5 kB: 450 MB of garbage for a file of 95,528 documents (issue 45.2). It reports only
 * a use of a declared variable, so an operation that declares none is passed over.
 */
function variablesInAllowedPosition(context: ValidationContext): ASTVisitor {
  const rule = VariablesInAllowedPositionRule(context);
  const operation = (rule as { OperationDefinition?: { enter?: ASTVisitFn<OperationDefinitionNode>; leave?: ASTVisitFn<OperationDefinitionNode> } }).OperationDefinition;
  // Another graphql-js may shape the rule otherwise: it is then run as it is.
  if (typeof operation?.enter !== 'function' || typeof operation.leave !== 'function') return rule;
  const { enter, leave } = operation;
  return {
    ...rule,
    OperationDefinition: {
      enter,
      leave(node, ...rest) {
        if (node.variableDefinitions && node.variableDefinitions.length > 0) return leave.call(this, node, ...rest);
      },
    },
  };
}

export interface InvalidRewrite {
  /** Offset, in the text as it was, of the definition the problem is in. */
  offset: number;
  reason: string;
}

/** `${...}` spans of a template's text, found again after the rewrite moved them. */
function holesOf(raw: string): Array<readonly [number, number]> {
  const holes: Array<readonly [number, number]> = [];
  for (let i = raw.indexOf('${'); i >= 0; i = raw.indexOf('${', i + 1)) {
    let depth = 0;
    let j = i + 1;
    for (; j < raw.length; j++) {
      if (raw[j] === '{') depth++;
      else if (raw[j] === '}' && --depth === 0) break;
    }
    holes.push([i, j + 1]);
    i = j;
  }
  return holes;
}

/** Where an offset of the rewritten text was before the edits; undefined inside new text. */
function originalOffset(edits: readonly Edit[]): (offset: number) => number | undefined {
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  return (offset) => {
    let delta = 0;
    for (const e of ordered) {
      const start = e.start + delta;
      if (offset < start) break;
      if (offset < start + e.text.length) return undefined;
      delta += e.text.length - (e.end - e.start);
    }
    return offset - delta;
  };
}

function parsed(text: string, template: boolean): { document: DocumentNode; holes: Array<readonly [number, number]> } | undefined {
  if (!template) return { document: parse(text), holes: [] };
  const doc = { raw: text, holes: holesOf(text) };
  for (const asNames of [false, true]) {
    try {
      return { document: parse(parseableText(doc as Parameters<typeof parseableText>[0], asNames)), holes: doc.holes };
    } catch {
      // the interpolations may stand for names: tried next
    }
  }
  return undefined;
}

/** One rewritten document to check: `template` when its text is a template's, with `${...}` interpolations. */
export interface RewriteToCheck {
  /** Where each definition of the document as it was starts: a problem is reported at its definition. */
  starts: readonly number[];
  text: string;
  rewrite: DocumentRewrite;
  schema: GraphQLSchema;
  template: boolean;
}

/** No fragment, defined or spread (`...`): the rules judge each of its operations on its own. */
const standsAlone = (text: string) => !text.includes('...') && !/\bfragment\b/.test(text);

/**
 * What is wrong with each rewritten document for its schema; an empty list when it validates.
 * Documents without fragments are validated together, one `validate` per schema: graphql-js's
 * `validate` has a fixed cost of ~50 µs per call (it merges its rules' visitors for every kind
 * of node), five times what checking a small operation costs, and a run over 1,000 documents
 * spent ~10% of its time there. Together they are judged as alone: each rule used here looks at
 * one operation (its fields, arguments, variables) at a time, and an error's nodes are in the
 * document it is about (found by their `Source`). Documents with fragments are validated alone:
 * a fragment name is the run's only name that two documents could share.
 * They go in slices of `CHECKED_AT_ONCE`: each rewritten text's parse (its tokens with it) lives
 * until its slice is judged, and a file of 95,000 documents held them all at once.
 */
export function invalidAfterRewrites(items: readonly RewriteToCheck[]): InvalidRewrite[][] {
  if (items.length <= CHECKED_AT_ONCE) return invalidInSlice(items);
  const results: InvalidRewrite[][] = [];
  for (let i = 0; i < items.length; i += CHECKED_AT_ONCE) append(results, invalidInSlice(items.slice(i, i + CHECKED_AT_ONCE)));
  return results;
}

/**
 * Enough documents per `validate` that its fixed cost is small beside theirs, and few enough that
 * a slice's parses die young: with slices of 1,000 they outlived the young generation, and a file
 * of 95,528 documents peaked at 1.26–1.39 GB RSS instead of ~0.9 GB (issue 45.2, four runs each).
 */
const CHECKED_AT_ONCE = 100;

function invalidInSlice(items: readonly RewriteToCheck[]): InvalidRewrite[][] {
  const results: InvalidRewrite[][] = items.map(() => []);
  const checks: { index: number; after: string; document: DocumentNode; holes: Array<readonly [number, number]> }[] = [];
  for (const [index, { starts, text, rewrite, template }] of items.entries()) {
    const after = applyEdits(text, rewrite.edits);
    let result: ReturnType<typeof parsed>;
    try {
      result = parsed(after, template);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      results[index] = [{ offset: starts[0] ?? 0, reason: `the rewritten document does not parse (${error.message}): left as it was; migrate it by hand` }];
      continue;
    }
    if (result) checks.push({ index, after, ...result });
  }
  const errorsOf = new Map<number, GraphQLError[]>();
  const together = new Map<GraphQLSchema, typeof checks>();
  for (const check of checks) {
    const { schema } = items[check.index]!;
    if (!standsAlone(check.after) || !check.document.loc) {
      errorsOf.set(check.index, [...validate(schema, check.document, RULES)]);
      continue;
    }
    const group = together.get(schema);
    if (group) group.push(check);
    else together.set(schema, [check]);
  }
  for (const [schema, group] of together) {
    for (const check of group) errorsOf.set(check.index, []);
    const bySource = new Map(group.map((check) => [check.document.loc!.source, check.index]));
    const merged: DocumentNode = { kind: Kind.DOCUMENT, definitions: group.flatMap((check) => check.document.definitions) };
    // No cap on the errors of the whole: each document is judged in full (alone, graphql-js stops at 100).
    for (const error of validate(schema, merged, RULES, { maxErrors: Infinity })) {
      const index = bySource.get(error.nodes?.[0]?.loc?.source as Source);
      // An error without a place is passed over, as for a document validated alone.
      if (index !== undefined) errorsOf.get(index)!.push(error);
    }
  }
  for (const { index, document, holes } of checks) results[index] = problemsOf(items[index]!, document, holes, errorsOf.get(index)!);
  return results;
}

function problemsOf({ starts, rewrite }: RewriteToCheck, document: DocumentNode, holes: Array<readonly [number, number]>, errors: readonly GraphQLError[]): InvalidRewrite[] {
  const original = originalOffset(rewrite.edits);
  // Fields the rewrite already reported (an unknown flat name) are marked where they are.
  const reported = new Set(rewrite.problems.map((p) => p.offset));
  const inHole = (offset: number) => holes.some(([s, e]) => offset >= s && offset < e);
  const out: InvalidRewrite[] = [];
  for (const error of errors) {
    const at = error.nodes?.[0]?.loc?.start;
    if (at === undefined || inHole(at)) continue;
    if (error.nodes!.some((n) => n.loc && reported.has(original(n.loc.start) ?? -1))) continue;
    // The rewrite keeps the definitions and their order: the n-th after is the n-th before.
    const index = document.definitions.findIndex((d) => d.loc && at >= d.loc.start && at < d.loc.end);
    const offset = starts[index] ?? starts[0] ?? 0;
    const reason = `the rewritten document would not validate against the v6 schema (${error.message.replace(/\.$/, '')}): left as it was; migrate it by hand`;
    if (!out.some((o) => o.offset === offset && o.reason === reason)) out.push({ offset, reason });
  }
  return out;
}

/**
 * What is wrong with `after` (the rewritten text of `before`) for `schema`; empty when it
 * validates. `template`: the text is a template's, with `${...}` interpolations, whose stand-ins
 * are never counted as problems.
 */
export function invalidAfterRewrite(before: DocumentNode, text: string, rewrite: DocumentRewrite, schema: GraphQLSchema, template = false): InvalidRewrite[] {
  return invalidAfterRewrites([{ starts: definitionStarts(before), text, rewrite, schema, template }])[0]!;
}

/** Where each definition of a document starts (a definition without a location counts as at 0). */
export function definitionStarts(document: DocumentNode): number[] {
  return document.definitions.map((d) => d.loc?.start ?? 0);
}
