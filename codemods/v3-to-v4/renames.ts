/** Renames that need no knowledge beyond the file: resolver options, markers, `LoaderDepend`, `@modelConfig()`. */
import { findProp, newExpressionsOf, optionsArg, renameKeys, unsafeOptions, valueOf } from '../lib/ast.js';
import type { FileChanges } from '../lib/changes.js';
import { coveredBy } from '../../compat/v6-form/edits.js';
import { localFor, namespaceUses, referencesTo, type BindingNode, type ErgraphImports, type NamedBinding } from '../lib/ergraph-imports.js';
import { nodesOf } from '../lib/nodes.js';
import { ts } from '../lib/parse.js';
import type { Project } from '../lib/project.js';
import { rewriteLoaderFilters } from './loader-params.js';
import { RELATIONSHIP_MARKERS } from './relationships.js';

const RESOLVER_RENAMES: Record<string, string> = {
  loaderFilters: 'loaderParams',
  globalLoaderFilter: 'globalLoaderParam',
};

export function rewriteResolverOptions(ch: FileChanges, imports: ErgraphImports, project?: Project): void {
  for (const { node } of newExpressionsOf(ch.sf, imports, ['Resolver'])) {
    const opts = optionsArg(node);
    if (!opts) {
      if (node.arguments?.length) ch.manual(node, 'Resolver options are not an object literal: rename loaderFilters/globalLoaderFilter');
      continue;
    }
    const unsafe = unsafeOptions(opts);
    if (unsafe) ch.manual(node, `Resolver: ${unsafe} (loaderFilters → loaderParams, globalLoaderFilter → globalLoaderParam)`);
    else {
      renameKeys(ch, opts, RESOLVER_RENAMES);
      const filters = findProp(opts, 'loaderFilters');
      const value = filters && valueOf(filters);
      if (value) rewriteLoaderFilters(ch, value, project);
    }
  }
}

/** `static __ergraph_relationships__` and `__pydantic_resolve_relationships__`, declared or read. */
export function rewriteMarkers(ch: FileChanges): void {
  if (!/__(?:ergraph|pydantic_resolve)_relationships__/.test(ch.source)) return;
  // From the file's shared index rather than a walk of its own.
  const { properties, accesses } = nodesOf(ch.sf);
  for (const node of properties) {
    if (!ts.isIdentifier(node.name) || !RELATIONSHIP_MARKERS.includes(node.name.text)) continue;
    const cls = node.parent;
    const clash = ts.isClassLike(cls) && cls.members.some((m) => m.name && ts.isIdentifier(m.name) && m.name.text === '__relationships__');
    if (clash) ch.manual(node, `${node.name.text} beside __relationships__: merge them`);
    else ch.replace(node.name, '__relationships__');
  }
  for (const node of accesses) if (RELATIONSHIP_MARKERS.includes(node.name.text)) ch.replace(node.name, '__relationships__');
  rewriteMarkerKeys(ch);
}

/** Every identifier named `name` in the file other than `declared`: uses by name, not by binding (enough to refuse). */
function namesLike(sf: ts.SourceFile, name: string, declared: ts.Node): ts.Identifier[] {
  return nodesOf(sf).identifiers(name).filter((node) => node !== declared);
}

const isKeyOf = (node: ts.Node) => ts.isElementAccessExpression(node.parent) && node.parent.argumentExpression === node;

/**
 * The marker as a string key: `kls['__ergraph_relationships__']`, and a constant or a default
 * parameter holding it when every use of that name is such a key (`kls[marker]`). A marker string
 * used any other way is left, and the run's last pass reports it.
 */
function rewriteMarkerKeys(ch: FileChanges): void {
  // The file's string literals from its shared index, in tree order: a walk of its own here was ~3% of a codemod run.
  for (const node of nodesOf(ch.sf).strings) {
    if (RELATIONSHIP_MARKERS.includes(node.text)) {
      const holder = node.parent;
      const named =
        (ts.isVariableDeclaration(holder) && ts.isVariableDeclarationList(holder.parent) && holder.parent.flags & ts.NodeFlags.Const) || ts.isParameter(holder)
          ? holder.initializer === node && ts.isIdentifier(holder.name) && holder.name
          : undefined;
      const uses = named ? namesLike(ch.sf, named.text, named) : [];
      if (isKeyOf(node) || (named && uses.length > 0 && uses.every(isKeyOf))) {
        const start = node.getStart(ch.sf) + 1;
        ch.replace({ start, end: node.getEnd() - 1 }, '__relationships__');
      }
    }
  }
}

interface Site {
  node: ts.Identifier | ts.PropertyAccessExpression;
  /** The named binding it goes through, when not through a namespace. */
  binding?: NamedBinding;
}

function sitesOf(ch: FileChanges, imports: ErgraphImports, exportName: string): Site[] {
  const sites: Site[] = [];
  for (const b of imports.named.filter((n) => n.imported === exportName))
    for (const id of referencesTo(ch.sf, b.local)) sites.push({ node: id, binding: b });
  for (const node of namespaceUses(ch.sf, imports, exportName)) sites.push({ node });
  return sites.filter((s) => !coveredBy(ch.edits, s.node.getStart(ch.sf)));
}

/**
 * Renames uses of an export. An aliased import (`LoaderDepend as LD`) keeps its local name and
 * only the imported name changes, unless some use is left for a human (then the old import stays
 * and migrated uses get the new export's own local name).
 */
export function renameExport(
  ch: FileChanges,
  imports: ErgraphImports,
  from: string,
  to: string,
  blocker: (site: ts.Node) => string | undefined,
  rewrite: (site: ts.Node, ref: string) => void,
): void {
  const sites = sitesOf(ch, imports, from);
  const blocked = new Set<BindingNode | undefined>();
  const ok: Site[] = [];
  for (const site of sites) {
    const reason = blocker(site.node);
    if (reason) {
      ch.manual(site.node, reason);
      blocked.add(site.binding?.specifier);
    } else ok.push(site);
  }
  for (const site of ok) {
    const spec = site.binding?.specifier;
    let ref: string;
    if (!spec) ref = `${(site.node as ts.PropertyAccessExpression).expression.getText(ch.sf)}.${to}`;
    // An alias keeps its local name (`LoaderDepend as LD` → `Loader as LD`), and its module when
    // that exports the new name (an entry point, a barrel re-exporting ergraph); else the new
    // name is imported from ergraph under the same alias.
    else if (spec.propertyName && !blocked.has(spec) && (ts.isImportSpecifier(spec) || imports.reaches(site.binding!.module, to))) {
      if (imports.reaches(site.binding!.module, to)) imports.renamed.set(spec, to);
      else imports.detached.set(spec, to);
      ref = site.binding!.local;
    } else ref = localFor(to, imports);
    rewrite(site.node, ref);
  }
}

export function rewriteLoaderDepend(ch: FileChanges, imports: ErgraphImports): void {
  renameExport(ch, imports, 'LoaderDepend', 'Loader', () => undefined, (site, ref) => ch.replace(site, ref));
}

/** `@modelConfig()` / `modelConfig()(Cls)` → `@serialization` / `serialization(Cls)`. */
export function rewriteModelConfig(ch: FileChanges, imports: ErgraphImports): void {
  const callOf = (site: ts.Node) => {
    const p = site.parent;
    return p && ts.isCallExpression(p) && p.expression === site ? p : undefined;
  };
  renameExport(
    ch,
    imports,
    'modelConfig',
    'serialization',
    (site) => {
      const call = callOf(site);
      if (!call) return 'modelConfig used without being called: replace with serialization';
      return call.arguments.length > 0 ? 'modelConfig(...) with options: serialization takes none, move them' : undefined;
    },
    (site, ref) => ch.replace(callOf(site) as ts.CallExpression, ref),
  );
}
