/**
 * What compiling one operation produces (compile.ts) and the compiled executor runs
 * (compiled.ts): per selection set, the fields to produce and how to complete each value.
 */
import type { FieldNode, FragmentDefinitionNode, GraphQLField, GraphQLLeafType, GraphQLObjectType, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { FieldSelection, NativeField } from './native.js';

export type Completion =
  | { readonly kind: 'leaf'; readonly nonNull: boolean; readonly type: GraphQLLeafType }
  | { readonly kind: 'list'; readonly nonNull: boolean; readonly item: Completion }
  | { readonly kind: 'object'; readonly nonNull: boolean; readonly type: GraphQLObjectType; readonly selection: Selection };

export interface Selection {
  readonly type: GraphQLObjectType;
  readonly fields: readonly FieldPlan[];
  /**
   * An object with every response key, in order, set to null: results start as copies of it, so
   * each has its final shape from the start (adding keys one by one costs a shape change each).
   */
  readonly template: Readonly<Record<string, null>>;
  /** Completes the plain leaf fields in generated code (builders.ts); set once the fields are known. */
  readonly builder: ObjectBuilder | undefined;
}

export type FieldKind = 'typename' | 'property' | 'resolve' | NativeField['kind'];

export interface FieldPlan {
  /** Index into per-run tables (arguments read from variables, load sources). */
  readonly id: number;
  readonly key: string;
  readonly name: string;
  readonly nodes: readonly FieldNode[];
  readonly parentType: GraphQLObjectType;
  readonly def: GraphQLField<unknown, unknown>;
  readonly kind: FieldKind;
  readonly native: NativeField | undefined;
  /** Argument values when they read no variable; otherwise computed once per run. */
  readonly args: Record<string, unknown> | undefined;
  readonly completion: Completion;
  /** What load fields read from their selection. */
  readonly selection: FieldSelection | undefined;
}

export interface Plan {
  readonly schema: GraphQLSchema;
  readonly operation: OperationDefinitionNode;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly root: Selection;
  /** Mutations: root fields, and the methods inside each group, one after another. */
  readonly serial: boolean;
  /** Number of field plans (the size of per-run tables). */
  readonly fieldCount: number;
}

export interface Unsupported {
  readonly unsupported: string;
}

/** One operation of a document: its plans per value combination of the `@skip`/`@include` variables. */
export interface CompiledOperation {
  readonly operation: OperationDefinitionNode;
  readonly conditionVariables: readonly string[];
  readonly plans: Map<string, Plan | Unsupported>;
}

/** Completes the plain leaf fields of a selection in generated code (builders.ts). */
export interface ObjectBuilder {
  /** The object with its fast fields completed, or undefined when one of them needs the slow path. */
  readonly build: (source: unknown) => Record<string, unknown> | undefined;
  /**
   * Builds `items` into `list` from index `from` while each builds whole (not null, not a
   * promise, `build` not undefined); returns the index it stopped at (`items.length`: all built).
   * Generated beside `build`, so the call per item is one site per selection, not the executor's
   * one site for every selection of every document (issue 31.1).
   */
  readonly buildAll: (items: ArrayLike<unknown>, list: unknown[], from: number) => number;
  /** Result values the built fields hold (the budget counts them). */
  readonly values: number;
  /** The fields the executor still completes itself, in selection order. */
  readonly rest: readonly FieldPlan[];
}
