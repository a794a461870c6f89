/**
 * Where v6 exports each name a codemod writes or moves: the entry point an import of it must
 * name. `test/codemods/v6-exports.test.ts` checks this table against the built package, so no
 * output can import a name from an entry point that lacks it.
 */
export const ROOT = 'ergraph';

export const V6_ENTRY: Readonly<Record<string, string>> = {
  // written by v3-to-v4
  Loader: ROOT,
  serialization: ROOT,
  AutoLoad: ROOT,
  Relationship: ROOT,
  // written by v5.4-to-v5.5
  configGlobalResolver: ROOT,
  // written by v5-to-v6
  groupTypeName: ROOT,
  // moved by federation-config (spec 2.7: order profiles are declarations of the ER graph)
  BatchPageConfig: ROOT,
  PageOrder: ROOT,
  OrderTerm: ROOT,
  AutoQueryConfig: 'ergraph/orm',
  // read (never renamed) by the transforms, so an import from a wrong entry is moved too
  ErDiagram: ROOT,
  Entity: ROOT,
  Resolver: ROOT,
  DefineSubset: ROOT,
  SubsetConfig: ROOT,
  Annotated: ROOT,
  configResolver: ROOT,
};

/** Old names v6 no longer exports from any entry point, and what replaced them (if one thing did). */
export const REMOVED: Readonly<Record<string, string | undefined>> = {
  LoaderDepend: 'Loader',
  modelConfig: 'serialization',
  LoadBy: undefined,
  MultipleRelationship: undefined,
  Link: undefined,
  toCamelCase: undefined,
  toGraphqlFieldName: undefined,
};

/** Every name the transforms recognise on an ergraph entry point. */
export const KNOWN_NAMES: ReadonlySet<string> = new Set([...Object.keys(V6_ENTRY), ...Object.keys(REMOVED)]);

export const isErgraphModule = (spec: string): boolean => spec === ROOT || spec.startsWith(`${ROOT}/`);
