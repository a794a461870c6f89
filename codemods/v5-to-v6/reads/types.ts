/**
 * What the read-site pass tracks: the shape of a value relative to an operation's `data`, and
 * the per-document context the flow and the rewrites share.
 */
import type { GraphQLSchema } from 'graphql';
import type { FileChanges } from '../../lib/changes.js';
import type { ts } from '../../lib/parse.js';

/** A value on its way from a client call to the code that reads `data`. */
export type Shape =
  /**
   * `fallback`: the value may be a stand-in for the data (`data ?? {}`, `data || {}`, a default
   * `= {}`), which has no v6 group either: a step into a group is then optional (`.User?.x`,
   * `{ User: { x = [] } = {} }`), so the stand-in still reads `undefined` where v5 did, not a throw.
   */
  | { kind: 'data'; fallback?: boolean }
  /** An object whose `data` is the operation's data (Apollo/urql results, a fetched JSON body, `rawRequest`). */
  | { kind: 'result' }
  | { kind: 'promise'; of: Shape }
  | { kind: 'tuple'; items: readonly (Shape | undefined)[] }
  /** A function whose call gives `returns` (a mutate or lazy-query trigger, `refetch`); `updates`: its call is given an updater of the data (`update-query.ts`). */
  | { kind: 'fn'; returns: Shape; updates?: Updater }
  /** A fetch `Response`: `.json()` gives the body. */
  | { kind: 'response' }
  /** urql's `client.query(...)` source: `.toPromise()` gives the result. */
  | { kind: 'source' }
  /** Apollo's `client.watchQuery(...)`: `subscribe(next)` and `getCurrentResult()` give results. */
  | { kind: 'watch' }
  /** The `JSON.stringify({ query })` text a `fetch` sends. */
  | { kind: 'body' };

/** Where an updater of the data is given: `fetchMore`/`subscribeToMore` options, a result's `updateQuery(fn)`, `cache.updateQuery(options, fn)`. */
export type Updater = 'fetchMore' | 'subscribeToMore' | 'updateQuery' | 'cache';

/**
 * Places a data-flow pass has settled for good (the spread of an updater's `prev` that the data
 * it returns starts from): the checker's marker for a typed value there would be wrong.
 */
export const settled = new WeakSet<ts.Node>();

export const DATA: Shape = { kind: 'data' };
/** `shape`, or when it is the data, the data or a stand-in for it (a default, the other side of `??`). */
export const orStandIn = (shape: Shape): Shape => (shape.kind === 'data' && !shape.fallback ? { kind: 'data', fallback: true } : shape);
export const RESULT: Shape = { kind: 'result' };
/** A promise of a promise is one promise: `.then` callbacks get the value either way. */
export const promiseOf = (of: Shape): Shape => (of.kind === 'promise' ? of : { kind: 'promise', of });

export interface Reads {
  sf: ts.SourceFile;
  ch: FileChanges;
  /** v5 response key under `data` → its v6 path (`userGetAll` → `['User', 'userGetAll']`). */
  moves: ReadonlyMap<string, readonly string[]>;
  /** The v6 keys the moves introduce under `data` (the groups): a v5 read of one is a clash. */
  groups: ReadonlySet<string>;
  /** The document spreads root fields the pass cannot see (an interpolated fragment): unknown keys may have moved too. */
  open: boolean;
  /** `data.a → data.G.a, …`: named in every marker so the user knows what to move. */
  summary: string;
  /** local name → module it is imported from. */
  importedFrom: ReadonlyMap<string, string>;
  /** A Vue/Svelte/Astro script: its top-level names are also read by the markup the pass does not see. */
  component: boolean;
  /** Nodes already handled (a value reached twice is rewritten once). */
  seen: Set<ts.Node>;
  /** The v6 schema the document was rewritten against: the groups' types, for data written in the v6 shape. */
  schema?: GraphQLSchema;
  /** Leave a marker: the place reads data the pass cannot follow. */
  todo(node: ts.Node, why: string): void;
  /** The result handed to a function of the user's (`render(data)`): true when the run follows it there (`reads/cross.ts`). */
  passes?(r: Reads, call: ts.CallExpression, index: number, shape: Shape): boolean;
  /** The document is exported under its name `local`: true when the run follows it into its importers. */
  exports?(r: Reads, local: string): boolean;
  /**
   * The scan found a type for this operation's result: a type node written for it (`useQuery<T>`,
   * `TypedDocumentNode<T, V>`), a typed document (`graphql(…)` of the client preset or gql.tada),
   * or a codegen result type named after the operation (`reads/checker.ts` follows its reads).
   */
  typed?(r: Reads, node: ts.Node, how: TypedHow): void;
  /** The value at `node` goes where the data flow loses it: true when the TypeScript checker follows it from there. */
  follows?(r: Reads, node: ts.Node): boolean;
  /**
   * A type written for this result names a type of the user's (`request<UsersData>`, `page:
   * UsersData`): 'handled' when the checker pass moves it, or marks it, at its declaration; else the
   * reason for the marker here (a generated type: the command regenerating it), or undefined.
   */
  resultType?(r: Reads, node: ts.TypeNode): 'handled' | string | undefined;
  /** `call` is given an updater of the data (`update-query.ts`). */
  updater?(r: Reads, call: ts.CallExpression, via: Updater): void;
  /** The document is the `index`th argument of a call of the project's own (or that argument's `key`, an options object): what the call gives when that function is a client (`reads/clients.ts`). */
  client?(r: Reads, call: ts.CallExpression, index: number, key?: string): Shape | undefined;
  /** The value of `shape` is returned from `fn`: true when a probe of `fn` as a client takes it (`reads/clients.ts`). */
  returns?(fn: ts.FunctionLikeDeclaration, shape: Shape): boolean;
  /** A probe of a function as a client: type arguments there are the wrapper's own, not a result's. */
  probing?: boolean;
}

/** A node of `file` at [at, end) that types the result of an operation with these moves (`reads/checker.ts`). */
export interface TypedFact {
  kind: 'typed';
  file: string;
  at: number;
  end: number;
  how: TypedHow;
  moves: { from: string[]; to: string[] }[];
  open: boolean;
}

/** How the checker finds a typed operation's data type from the node the scan names. */
export type TypedHow = { kind: 'type' } | { kind: 'document' } | { kind: 'name'; name: string };

/** What the cross-file pass plugs into the read-site pass of one file. */
export type CrossHooks = Pick<Reads, 'passes' | 'exports' | 'typed' | 'follows' | 'resultType'> & {
  /** The scan's dry run: its edits are thrown away, and once-per-file reports wait for the real one. */
  scanning?: boolean;
  /** What a call of the imported `local` (its method `member`) gives when the document is its `index`th argument: a client another file declares. */
  clients?(sf: ts.SourceFile, local: string, member: string | undefined, index: number): Shape | undefined;
};
