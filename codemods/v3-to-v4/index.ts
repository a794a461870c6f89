/** v3 → v4: the ER diagram API renames of the specification's section 9.1. */
import { markOpaque, referencesTo, type ErgraphImports } from '../lib/ergraph-imports.js';
import type { FileChanges } from '../lib/changes.js';
import { notingOtherFiles } from '../lib/alone.js';
import { coveredBy } from '../../compat/v6-form/edits.js';
import { slot } from '../lib/nodes.js';
import { ts } from '../lib/parse.js';
import { SCRIPT_EXTENSIONS } from '../lib/parse.js';
import { scriptTransform } from '../script-steps.js';
import { meta } from './meta.js';
import { rewriteLoadBy } from './load-by.js';
import { declarations, rewriteDeclarations, type Declaration, type RelationshipFact } from './relationships.js';
import type { Script } from '../lib/script.js';
import { rewriteLoaderDepend, rewriteMarkers, rewriteModelConfig, rewriteResolverOptions } from './renames.js';

const OLD_EXPORTS = ['LoaderDepend', 'modelConfig', 'LoadBy', 'MultipleRelationship', 'Link'];
/** Every v3 shape this step rewrites names one of these words; a file without any is left unparsed. */
const V3_WORDS = /\b(?:Relationship|LoadBy|Resolver|LoaderDepend|modelConfig|Link)\b|__(?:ergraph|pydantic_resolve)_relationships__/;

/** Removed in v4 with no one-name replacement: calls are rewritten or marked by their own steps. */
const REMOVED_SHAPES = ['MultipleRelationship', 'Link', 'LoadBy'];

/** Other uses of those names (types, `typeof`, values passed around) have nothing to become: marked. */
function markRemovedTypes(ch: FileChanges, imports: ErgraphImports): void {
  for (const binding of imports.named) {
    if (!REMOVED_SHAPES.includes(binding.imported)) continue;
    for (const id of referencesTo(ch.sf, binding.local)) {
      const p = id.parent;
      if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === id) continue;
      if (coveredBy(ch.edits, id.getStart(ch.sf))) continue;
      ch.manual(id, `${binding.imported} was removed in v4 (one Relationship per link, AutoLoad instead of LoadBy): rewrite this use`);
    }
  }
}

/**
 * A script's relationship declarations, read once: the runner's scan and apply see the same tree
 * (and the same imports and module graph), and reading them was a fifth of this step's time.
 */
const declared = slot<ts.SourceFile, Declaration[]>('ergraph.v3-to-v4.declarations');
function declarationsOf(script: Script): Declaration[] {
  let found = declared.get(script.sf);
  if (!found) declared.set(script.sf, (found = declarations(script.sf, script.imports, script.project)));
  return found;
}

const transform = scriptTransform<RelationshipFact>(
  {
    ...meta,
    extensions: SCRIPT_EXTENSIONS,
  },
  {
    wants: (source) => V3_WORDS.test(source),
    scan: (script) => (script.source.includes('Relationship') ? declarationsOf(script).flatMap((d) => d.facts) : []),
    apply(script, { facts, options, changes: ch }) {
      const { imports } = script;
      const decls = declarationsOf(script);
      rewriteDeclarations(ch, decls, imports);
      // A relationship LoadBy names may be declared in a file a lone run does not see.
      rewriteLoadBy(notingOtherFiles(ch, options.alone, 'v3-to-v4', /no relationship found/), imports, facts, script.project);
      rewriteResolverOptions(ch, imports, script.project);
      rewriteMarkers(ch);
      rewriteLoaderDepend(ch, imports);
      rewriteModelConfig(ch, imports);
      markOpaque(ch, imports, OLD_EXPORTS);
      markRemovedTypes(ch, imports);
    },
    imports: { drop: OLD_EXPORTS, rename: { LoaderDepend: 'Loader', modelConfig: 'serialization' } },
  },
);

export default transform;
