/**
 * From documents to the operations `verify` runs: each v5 document is migrated in memory with the
 * very rewrite `v5-to-v6` writes (or taken from its `.v6-map.json`), and split into its
 * operations, each with the response paths that moved (`data.userGetAll → data.User.userGetAll`).
 */
import { Kind, parse, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { applyEdits } from '../../compat/v6-form/edits.js';
import { chooseSchema } from '../../compat/v6-form/choose.js';
import { movesOfOperation, rewriteDocument, type MovedPath } from '../../compat/v6-form/document.js';
import type { FoundDocument } from './find.js';
import type { NotRunCause } from './report.js';

export type OperationKind = 'query' | 'mutation' | 'subscription';

export interface VerifyCase {
  file: string;
  line: number;
  /** The operation's name, `null` for an anonymous one. */
  operation: string | null;
  kind: OperationKind;
  v5: string;
  v6: string;
  /** Moves of this operation and of the root fragments it may spread. */
  moves: MovedPath[];
  schema: GraphQLSchema;
  persistedId?: string;
  /** Required variables (`$id: ID!` without a default), which the run must be given. */
  required: string[];
}

export interface NotRun {
  file: string;
  line: number;
  operation: string | null;
  kind?: OperationKind;
  cause: NotRunCause;
  reason: string;
}

function parsed(text: string): DocumentNode | string {
  try {
    return parse(text);
  } catch (error) {
    return `it does not parse: ${(error as Error).message}`;
  }
}

const requiredOf = (op: OperationDefinitionNode) =>
  (op.variableDefinitions ?? []).filter((v) => v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue).map((v) => v.variable.name.value);

/** The operations to run for one document; documents that are not v5 documents of this API give none. */
export function casesOf(doc: FoundDocument, schemas: readonly GraphQLSchema[], keepResponseKeys = true): (VerifyCase | NotRun)[] {
  const at = { file: doc.file, line: doc.line };
  const document = parsed(doc.text);
  if (typeof document === 'string') return [{ ...at, operation: null, ...(doc.notRun ?? { cause: 'parse', reason: document }) }];
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  // Fragments are run where an operation spreads them: alone they are no operation to run (nor one left unproven).
  if (operations.length === 0) return [];
  const choice = chooseSchema(document, schemas);
  // No root field at all (fragments on ordinary types), or none of this API's: not a v5 document to check.
  if (choice === undefined || choice === 'foreign') return [];
  if (doc.notRun) return operations.map((op) => ({ ...at, operation: op.name?.value ?? null, ...doc.notRun! }));
  let rewrite = rewriteDocument(document, doc.text, choice.schema, choice.index, { keepResponseKeys });
  // A document migrated with the other response-key choice moved its keys elsewhere: its moves are the other rewrite's.
  const other = rewriteDocument(document, doc.text, choice.schema, choice.index, { keepResponseKeys: !keepResponseKeys });
  if (doc.v6 !== undefined && applyEdits(doc.text, other.edits) === doc.v6) rewrite = other;
  // Already v6 (a migrated tree read without its base): nothing moved, nothing to compare.
  if (rewrite.moves.length === 0 && rewrite.problems.length === 0) return [];
  if (rewrite.problems.length > 0 && doc.v6 === undefined)
    return operations.map((op) => ({ ...at, operation: op.name?.value ?? null, cause: 'manual', reason: `v5-to-v6 leaves it for manual work: ${rewrite.problems.map((p) => p.reason).join('; ')}` }));
  const v6 = doc.v6 ?? applyEdits(doc.text, rewrite.edits);
  return operations.map((op) => {
    const name = op.name?.value ?? null;
    const base = { ...at, operation: name, kind: op.operation as OperationKind };
    const moves = movesOfOperation(rewrite.moves, name);
    return { ...base, v5: doc.text, v6, moves, schema: choice.schema, required: requiredOf(op), ...(doc.persistedId ? { persistedId: doc.persistedId } : {}) };
  });
}

export const isCase = (c: VerifyCase | NotRun): c is VerifyCase => 'v6' in c;
