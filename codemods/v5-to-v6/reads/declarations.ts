/** A file's top-level names: what it declares, and what it imports. */
import { slot } from '../../lib/nodes.js';
import { ts } from '../../lib/parse.js';

export type Declaration = { node: ts.Node; id: ts.Identifier; fn?: ts.FunctionLikeDeclaration };

/**
 * A file's top-level declarations by name (the first of each), indexed once per tree: asked for
 * every exported document, a walk of the statements made a file of 32,000 documents spend 84 of
 * its 99 s here (issue 45.2).
 */
const declarations = slot<ts.SourceFile, Map<string, Declaration>>('ergraph.v5-to-v6.declarations');

/** The top-level declaration of `name` in a file, and its function when it is one. */
export function declarationOf(sf: ts.SourceFile, name: string): Declaration | undefined {
  let index = declarations.get(sf);
  if (!index) declarations.set(sf, (index = indexDeclarations(sf)));
  return index.get(name);
}

function indexDeclarations(sf: ts.SourceFile): Map<string, Declaration> {
  const index = new Map<string, Declaration>();
  const add = (name: string, found: Declaration) => {
    if (!index.has(name)) index.set(name, found);
  };
  for (const stmt of sf.statements) {
    if (ts.isFunctionDeclaration(stmt) && stmt.name) add(stmt.name.text, { node: stmt, id: stmt.name, fn: stmt.body ? stmt : undefined });
    else if (ts.isClassDeclaration(stmt) && stmt.name) add(stmt.name.text, { node: stmt, id: stmt.name });
    else if (ts.isVariableStatement(stmt)) {
      const constant = (stmt.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const decl of stmt.declarationList.declarations) {
        if (!ts.isIdentifier(decl.name)) continue;
        let init = decl.initializer;
        while (init && ts.isParenthesizedExpression(init)) init = init.expression;
        const fn = constant && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
        add(decl.name.text, { node: decl, id: decl.name, fn });
      }
    }
  }
  return index;
}

/** The import binding of `local` in a file. */
export function importBinding(sf: ts.SourceFile, local: string): ts.Identifier | undefined {
  for (const stmt of sf.statements) {
    const clause = ts.isImportDeclaration(stmt) ? stmt.importClause : undefined;
    if (!clause || clause.isTypeOnly) continue;
    if (clause.name?.text === local) return clause.name;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (el.name.text === local && !el.isTypeOnly) return el.name;
  }
  return undefined;
}
