/**
 * The text edits that turn one v5 GraphQL document into its v6 grouped form. Only root-level
 * selections change: operations, fragments on the root types, and inline fragments at the root.
 * A run of adjacent flat fields of one entity becomes one group,
 *
 *   userGetAll(limit: 5) { id }   →   User { userGetAll: getAll(limit: 5) { id } }
 *
 * and every flat field keeps the response key the client reads (its alias, or the flat name as a
 * new alias) one level down: `data.userGetAll` moves to `data.User.userGetAll`. Each move is
 * returned so the report can list the paths client code must follow.
 */
import {
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { FlatIndex, FlatTarget, OperationKind } from '../flat-index.js';
import { knownOf } from './choose.js';
import type { Edit } from './edits.js';

export interface MovedPath {
  /** Operation name (`null` for an anonymous one) or fragment the field sits in. */
  where: { operation: string | null } | { fragment: string };
  /** The v5 path under `data`, e.g. `['userGetAll']`. */
  from: string[];
  /** The v6 path under `data`, e.g. `['User', 'userGetAll']`. */
  to: string[];
  target: Pick<FlatTarget, 'entity' | 'method' | 'flatName'>;
  /** Offset of the v5 field in the document text. */
  offset: number;
}

export interface DocumentProblem {
  /** Offset in the document text. */
  offset: number;
  reason: string;
}

export interface DocumentRewrite {
  edits: Edit[];
  moves: MovedPath[];
  problems: DocumentProblem[];
}

export interface DocumentRewriteOptions {
  /**
   * `true` (default): alias each method with the v5 response key so only the path moves.
   * `false`: drop the generated aliases; the leaf key becomes the method name.
   */
  keepResponseKeys?: boolean;
  /** Offsets that belong to template interpolations, not to GraphQL written in the document. */
  isPlaceholder?: (offset: number) => boolean;
}

interface Context {
  text: string;
  kind: OperationKind;
  rootName: string;
  groups: ReadonlySet<string>;
  index: FlatIndex;
  keep: boolean;
  isPlaceholder: (offset: number) => boolean;
  where: MovedPath['where'];
  out: DocumentRewrite;
  /** Shared by every mutation root of the document (operations and fragments on Mutation). */
  mutationGroups: MutationGroups | null;
}

interface MutationGroups {
  /** Entities that already have a group somewhere in the document's mutation roots. */
  seen: Set<string>;
  /** Every alias written anywhere in the document, so a new one never merges with it. */
  taken: Set<string>;
}

type RunItem = { field: FieldNode; target: FlatTarget };

const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** The field's text with its name switched to the method, and the response key it now has. */
function renamedField(ctx: Context, { field, target }: RunItem): { text: string; key: string } {
  const start = field.loc!.start;
  const full = ctx.text.slice(start, field.loc!.end);
  const nameStart = field.name.loc!.start - start;
  const nameEnd = field.name.loc!.end - start;
  if (field.alias) {
    if (field.alias.value === target.method) {
      // `getAll: userGetAll` would become `getAll: getAll`; the alias says nothing any more.
      return { text: target.method + full.slice(nameEnd), key: target.method };
    }
    return { text: full.slice(0, nameStart) + target.method + full.slice(nameEnd), key: field.alias.value };
  }
  const key = ctx.keep ? field.name.value : target.method;
  const name = ctx.keep && key !== target.method ? `${key}: ${target.method}` : target.method;
  return { text: name + full.slice(nameEnd), key };
}

/** Emits one group for the run and returns the group's response key. */
function emitRun(ctx: Context, run: readonly RunItem[]): string {
  const { text } = ctx;
  const entity = run[0]!.target.entity;
  const start = run[0]!.field.loc!.start;
  const end = run[run.length - 1]!.field.loc!.end;

  let groupKey = entity;
  if (ctx.mutationGroups) {
    const { seen, taken } = ctx.mutationGroups;
    // graphql-js merges equal root keys into their first occurrence, so a second `Task { … }`
    // would run before mutations written between the two. Each later group of an entity gets a
    // fresh alias: every group is then its own root field and runs in document order, wherever
    // fragments spread it.
    if (seen.has(entity)) {
      let n = 2;
      while (taken.has((groupKey = `${entity}_${n}`))) n++;
      taken.add(groupKey);
    }
    seen.add(entity);
  }

  let body = '';
  let cursor = start;
  for (const item of run) {
    const { text: fieldText, key } = renamedField(ctx, item);
    body += text.slice(cursor, item.field.loc!.start) + fieldText;
    cursor = item.field.loc!.end;
    const from = [item.field.alias?.value ?? item.field.name.value];
    ctx.out.moves.push({
      where: ctx.where,
      from,
      to: [groupKey, key],
      target: { entity, method: item.target.method, flatName: item.target.flatName },
      offset: item.field.loc!.start,
    });
  }
  const head = groupKey === entity ? entity : `${groupKey}: ${entity}`;
  let replacement: string;
  // Block strings keep their meaning only at their indentation, so they are never re-indented.
  if (body.includes('\n') && !body.includes('"""')) {
    const eol = eolOf(text);
    const indent = indentAt(text, start);
    const step = /^\t+$/.test(indent) ? '\t' : '  ';
    const shifted = body.replace(/\n(?![\r\n])/g, `\n${step}`);
    replacement = [head, ' {', eol, indent, step, shifted, eol, indent, '}'].join('');
  } else {
    // Joined, not concatenated: `+` leaves a tree of the pieces (and of the slices' whole text)
    // that a held edit keeps, ~600 bytes a group; a file of 95,528 documents held 59 MB of them.
    replacement = [head, ' { ', body, ' }'].join('');
  }
  ctx.out.edits.push({ start, end, text: replacement });
  return groupKey;
}

function rewriteRoot(ctx: Context, set: SelectionSetNode): void {
  let run: RunItem[] = [];
  const emitted = new Map<string, string>();
  const untouched: FieldNode[] = [];
  const flush = () => {
    if (run.length > 0) emitted.set(emitRun(ctx, run), run[0]!.target.entity);
    run = [];
  };
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__') || ctx.groups.has(name) || ctx.isPlaceholder(selection.name.loc!.start)) {
        untouched.push(selection);
        flush();
        continue;
      }
      const targets = ctx.index[ctx.kind].get(name) ?? [];
      if (targets.length !== 1) {
        flush();
        ctx.out.problems.push({
          offset: selection.loc!.start,
          reason:
            targets.length === 0
              ? `\`${name}\` is neither a v5 flat ${ctx.kind} field nor a v6 group of the given schema`
              : `\`${name}\` is ambiguous: it is the v5 name of ${targets.map((t) => `${t.entity}.${t.method}`).join(' and ')}`,
        });
        continue;
      }
      const target = targets[0]!;
      if (run.length > 0 && run[0]!.target.entity !== target.entity) flush();
      run.push({ field: selection, target });
      continue;
    }
    flush();
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const condition = selection.typeCondition?.name.value;
      if (condition === undefined || condition === ctx.rootName) rewriteRoot(ctx, selection.selectionSet);
    }
  }
  flush();
  // `User: __typename` next to a new `User { … }` group would be two different fields under one
  // response key, which v6 rejects; a human picks the new alias.
  for (const field of untouched) {
    const key = field.alias?.value ?? field.name.value;
    const entity = emitted.get(key);
    if (entity !== undefined && field.name.value !== entity) {
      ctx.out.problems.push({
        offset: field.loc!.start,
        reason: `the response key \`${key}\` is also the v6 group \`${entity}\` this document now selects: give this field another alias`,
      });
    }
  }
}

/** The edits for one parsed document; `text` is the exact text it was parsed from. */
/**
 * Every alias written in a selection set, nested ones too. A walk of its own: graphql-js's
 * `visit` builds a path and an edit list per node, a twentieth of a codemod run's allocations.
 */
function collectAliases(set: SelectionSetNode | undefined, into: Set<string>): void {
  if (!set) return;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) into.add(selection.alias.value);
      collectAliases(selection.selectionSet, into);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) collectAliases(selection.selectionSet, into);
  }
}

export function rewriteDocument(
  document: DocumentNode,
  text: string,
  schema: GraphQLSchema,
  index: FlatIndex,
  options: DocumentRewriteOptions = {},
): DocumentRewrite {
  const out: DocumentRewrite = { edits: [], moves: [], problems: [] };
  // The schema's root names and groups, worked out once per schema rather than per document.
  const { roots: rootNames, groups } = knownOf(schema);
  const taken = new Set<string>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) collectAliases(definition.selectionSet, taken);
  const mutationGroups: MutationGroups = { seen: new Set(), taken };
  const base = {
    text,
    index,
    keep: options.keepResponseKeys ?? true,
    isPlaceholder: options.isPlaceholder ?? (() => false),
    out,
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      if (definition.operation === OperationTypeNode.SUBSCRIPTION) continue;
      const kind: OperationKind = definition.operation === OperationTypeNode.MUTATION ? 'mutation' : 'query';
      rewriteRoot(
        {
          ...base,
          kind,
          rootName: rootNames[kind],
          groups: groups[kind],
          where: { operation: definition.name?.value ?? null },
          mutationGroups: kind === 'mutation' ? mutationGroups : null,
        },
        definition.selectionSet,
      );
    } else if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      const on = definition.typeCondition.name.value;
      const kind = on === rootNames.query ? 'query' : on === rootNames.mutation ? 'mutation' : null;
      if (!kind) continue;
      rewriteRoot(
        {
          ...base,
          kind,
          rootName: on,
          groups: groups[kind],
          where: { fragment: definition.name.value },
          mutationGroups: kind === 'mutation' ? mutationGroups : null,
        },
        definition.selectionSet,
      );
    }
  }
  return out;
}

/**
 * The moves that concern one operation of the document: its own, and those of the root fragments
 * it may spread (`verify` compares each operation's answers with these; so do the compat
 * endpoint's shadow runs).
 */
export function movesOfOperation(moves: readonly MovedPath[], operation: string | null): MovedPath[] {
  return moves.filter((m) => ('operation' in m.where ? m.where.operation === operation : true));
}

/** `data.userGetAll → data.User.userGetAll`, the way reports print a move. */
export function describeMove(move: MovedPath): string {
  const where = 'operation' in move.where ? `operation ${move.where.operation ?? '(anonymous)'}` : `fragment ${move.where.fragment}`;
  return `data.${move.from.join('.')} → data.${move.to.join('.')} (${move.target.entity}.${move.target.method}, ${where})`;
}
