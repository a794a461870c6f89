/** v3 → v4: the ER diagram API renames of the specification's section 9.1. */
import { fileChanges } from '../lib/changes.js';
import { fixImports, readErgraphImports } from '../lib/ergraph-imports.js';
import { parseSource, SCRIPT_EXTENSIONS } from '../lib/parse.js';
import type { Transform } from '../types.js';
import { rewriteLoadBy } from './load-by.js';
import { declarations, rewriteDeclarations, type RelationshipFact } from './relationships.js';
import { rewriteLoaderDepend, rewriteMarkers, rewriteModelConfig, rewriteResolverOptions } from './renames.js';

const transform: Transform<RelationshipFact> = {
  name: 'v3-to-v4',
  from: '3',
  to: '4',
  description:
    'Relationship options (field→fk, targetKls→target, …, defaultFieldName→name), MultipleRelationship split, LoadBy→AutoLoad, ' +
    'Resolver loaderFilters→loaderParams, __relationships__, LoaderDepend→Loader, @modelConfig()→@serialization',
  extensions: SCRIPT_EXTENSIONS,
  scan(source, file) {
    // Facts need a Relationship; the cheap text test spares a parse for most files.
    if (!source.includes('Relationship')) return [];
    const sf = parseSource(source, file);
    return declarations(sf, readErgraphImports(sf)).flatMap((d) => d.facts);
  },
  apply(source, { file, facts }) {
    const sf = parseSource(source, file);
    const imports = readErgraphImports(sf);
    const ch = fileChanges(sf);
    const decls = declarations(sf, imports);
    // Facts from a scan of all files; alone (no scan pass) the file's own declarations still count.
    const known = facts.length > 0 ? facts : decls.flatMap((d) => d.facts);
    rewriteDeclarations(ch, decls, imports);
    rewriteLoadBy(ch, imports, known);
    rewriteResolverOptions(ch, imports);
    rewriteMarkers(ch);
    rewriteLoaderDepend(ch, imports);
    rewriteModelConfig(ch, imports);
    fixImports(ch, imports, ['LoaderDepend', 'modelConfig', 'LoadBy', 'MultipleRelationship', 'Link']);
    return ch.result();
  },
};

export default transform;
