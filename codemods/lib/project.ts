/**
 * The project's own module graph, read from every file of a run: what each module declares,
 * imports and re-exports. Transforms ask it two questions a single file cannot answer: which
 * ergraph export a name imported through the project's barrels stands for, and which class a
 * local name (an alias, a barrel import) refers to. Plain data, so it crosses to worker threads.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { aliasTargets, pathMappingFor } from './module-paths.js';
import { isErgraphModule } from './v6-exports.js';
import { ts } from './parse.js';

export interface ModuleFacts {
  file: string;
  /** Classes declared at the top level (and in namespaces), by name. */
  classes: string[];
  /** exported name → local name, for `export class X`, `export { a as b }`. */
  localExports: Record<string, string>;
  /** exported name → where it comes from (`export { X as Y } from './m'`, `export { X } from 'ergraph'`). */
  reExports: Record<string, { module: string; name: string }>;
  /** `export * from '<module>'`. */
  stars: string[];
  /** local name → where it was imported from (`import { X as Y } from './m'`, `const { X } = require('./m')`). */
  imports: Record<string, { module: string; name: string }>;
  /** local name → module of `import * as ns from './m'` / `const ns = require('./m')`. */
  namespaces: Record<string, string>;
}

const SCRIPT = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

function moduleSpecifier(node: ts.Expression | undefined): string | undefined {
  return node && ts.isStringLiteral(node) ? node.text : undefined;
}

/** `require('m')`, `await import('m')`, `import('m')`: the module, if the expression is one of those. */
export function requiredModule(expr: ts.Expression | undefined): string | undefined {
  let e = expr;
  while (e && (ts.isAwaitExpression(e) || ts.isParenthesizedExpression(e))) e = e.expression;
  if (!e || !ts.isCallExpression(e) || e.arguments.length !== 1) return undefined;
  const isRequire = ts.isIdentifier(e.expression) && e.expression.text === 'require';
  const isImport = e.expression.kind === ts.SyntaxKind.ImportKeyword;
  return isRequire || isImport ? moduleSpecifier(e.arguments[0]) : undefined;
}

/**
 * A map keyed by a project's own names. Without a prototype V8 keeps it as a hash table from the
 * start; a `{}` per module, each filled with different names, grows a hidden class per name (a
 * tenth of a codemod run went to that). It still crosses to worker threads as a plain object.
 */
const dict = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

export function scanModule(sf: ts.SourceFile): ModuleFacts {
  const facts: ModuleFacts = { file: sf.fileName, classes: [], localExports: dict(), reExports: dict(), stars: [], imports: dict(), namespaces: dict() };
  const exported = (node: ts.Node) => !!(ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
  for (const stmt of sf.statements) {
    if (ts.isClassDeclaration(stmt) && stmt.name) {
      facts.classes.push(stmt.name.text);
      if (exported(stmt)) facts.localExports[stmt.name.text] = stmt.name.text;
    } else if (ts.isImportDeclaration(stmt)) {
      const module = moduleSpecifier(stmt.moduleSpecifier);
      const bindings = stmt.importClause?.namedBindings;
      if (!module) continue;
      if (stmt.importClause?.name) facts.imports[stmt.importClause.name.text] = { module, name: 'default' };
      if (bindings && ts.isNamespaceImport(bindings)) facts.namespaces[bindings.name.text] = module;
      else if (bindings)
        for (const s of bindings.elements) facts.imports[s.name.text] = { module, name: (s.propertyName ?? s.name).text };
    } else if (ts.isExportDeclaration(stmt)) {
      const module = moduleSpecifier(stmt.moduleSpecifier);
      const clause = stmt.exportClause;
      if (!clause) {
        if (module) facts.stars.push(module);
      } else if (ts.isNamespaceExport(clause)) {
        if (module) facts.reExports[clause.name.text] = { module, name: '*' };
      } else
        for (const s of clause.elements) {
          const name = (s.propertyName ?? s.name).text;
          if (module) facts.reExports[s.name.text] = { module, name };
          else facts.localExports[s.name.text] = name;
        }
    } else if (ts.isVariableStatement(stmt)) {
      for (const decl of stmt.declarationList.declarations) {
        const module = requiredModule(decl.initializer);
        if (ts.isIdentifier(decl.name)) {
          if (exported(stmt)) facts.localExports[decl.name.text] = decl.name.text;
          if (module) facts.namespaces[decl.name.text] = module;
        } else if (module && ts.isObjectBindingPattern(decl.name)) {
          for (const el of decl.name.elements) {
            const key = el.propertyName ?? el.name;
            if (ts.isIdentifier(el.name) && (ts.isIdentifier(key) || ts.isStringLiteral(key)))
              facts.imports[el.name.text] = { module, name: key.text };
          }
        }
      }
    } else if ((ts.isFunctionDeclaration(stmt) || ts.isEnumDeclaration(stmt)) && stmt.name && exported(stmt)) {
      facts.localExports[stmt.name.text] = stmt.name.text;
    }
  }
  return facts;
}

/** A class as the project declares it. */
export interface ClassRef {
  file: string;
  name: string;
}

export class Project {
  private readonly byFile = new Map<string, ModuleFacts>();
  /** resolveModule's answers; the facts never change after construction, so neither do they. */
  private readonly resolved = new Map<string, string | undefined>();
  private readonly byImporter = new Map<string, Map<string, string | undefined>>();
  private exporters: Map<string, string[]> | undefined;
  private namesErgraphModule: boolean | undefined;

  constructor(facts: readonly ModuleFacts[]) {
    for (const f of facts) this.byFile.set(f.file, f);
  }

  get size(): number {
    return this.byFile.size;
  }

  allFacts(): ModuleFacts[] {
    return [...this.byFile.values()];
  }

  /**
   * The modules exporting a class they declare under `name`. Indexed on first ask: a search of
   * every module per question made a run quadratic in its files.
   */
  classExporters(name: string): readonly string[] {
    if (!this.exporters) {
      this.exporters = new Map();
      for (const f of this.byFile.values())
        for (const exported of Object.keys(f.localExports)) {
          if (!f.classes.includes(f.localExports[exported]!)) continue;
          const list = this.exporters.get(exported);
          if (list) list.push(f.file);
          else this.exporters.set(exported, [f.file]);
        }
    }
    return this.exporters.get(name) ?? [];
  }

  /**
   * Does any module import, re-export or `export *` from an ergraph module? A chain through the
   * project's barrels reaches ergraph only through one of those facts, so without one only a
   * direct import binds an ergraph name: the runner then skips following each file's imports
   * through the barrels (2% of a dry run over 2,121 files of real code that never import ergraph).
   */
  namesErgraph(): boolean {
    if (this.namesErgraphModule === undefined) {
      this.namesErgraphModule = false;
      search: for (const f of this.byFile.values()) {
        if (f.stars.some(isErgraphModule)) {
          this.namesErgraphModule = true;
          break;
        }
        for (const local in f.imports)
          if (isErgraphModule(f.imports[local]!.module)) {
            this.namesErgraphModule = true;
            break search;
          }
        for (const name in f.reExports)
          if (isErgraphModule(f.reExports[name]!.module)) {
            this.namesErgraphModule = true;
            break search;
          }
      }
    }
    return this.namesErgraphModule;
  }

  facts(file: string): ModuleFacts | undefined {
    return this.byFile.get(file);
  }

  /**
   * The run's file a specifier names: relative (`./m`, `./m.js` for `m.ts`, `./dir` for
   * `dir/index.ts`), or through the tsconfig `paths` alias of the importing file (`@/lib/eg`).
   */
  resolveModule(from: string, spec: string): string | undefined {
    if (!spec.startsWith('.')) return this.resolveAlias(from, spec);
    // Asked for every relative import of every file by several steps; path joins were a tenth of
    // a chain's allocations (bench/codemods.ts), so each (directory, specifier) is resolved once.
    // First by the file's own name and specifier (the same string objects every time, so their
    // hashes are cached), then by directory: a key built per call was hashed per call.
    let mine = this.byImporter.get(from);
    if (!mine) this.byImporter.set(from, (mine = new Map()));
    if (mine.has(spec)) return mine.get(spec);
    const dir = dirname(from);
    const key = `${dir}\0${spec}`;
    if (this.resolved.has(key)) {
      const known = this.resolved.get(key);
      mine.set(spec, known);
      return known;
    }
    // Files named relative to a root (`applyToFiles` on fixture trees) resolve among themselves.
    const found = this.fileAt(isAbsolute(from) ? resolve(dir, spec) : join(dir, spec));
    this.resolved.set(key, found);
    mine.set(spec, found);
    return found;
  }

  /** The run's file at a path as a module names it: itself, with a script extension, or its index. */
  private fileAt(base: string): string | undefined {
    let found = this.byFile.has(base) ? base : undefined;
    const stem = base.replace(/\.(?:[cm]?js|jsx)$/, '');
    for (let i = 0; !found && i < SCRIPT.length; i++) if (this.byFile.has(stem + SCRIPT[i])) found = stem + SCRIPT[i];
    for (let i = 0; !found && i < SCRIPT.length; i++) {
      const index = join(base, `index${SCRIPT[i]}`);
      if (this.byFile.has(index)) found = index;
    }
    return found;
  }

  /** A bare specifier through the importing file's tsconfig `paths`; packages (ergraph itself) are not the run's files. */
  private resolveAlias(from: string, spec: string): string | undefined {
    if (isErgraphModule(spec) || spec.startsWith('node:')) return undefined;
    const mapping = pathMappingFor(from);
    if (!mapping) return undefined;
    for (const target of aliasTargets(mapping, spec)) {
      const found = this.fileAt(target);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * The ergraph export a module's exported name stands for (following re-exports and `export *`
   * through the project's barrels), or undefined when it is not one.
   */
  ergraphExport(file: string, name: string, known: ReadonlySet<string>, seen = new Set<string>()): string | undefined {
    const key = `${file}\0${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const facts = this.byFile.get(file);
    if (!facts) return undefined;
    const re = facts.reExports[name];
    if (re) return this.fromModule(file, re.module, re.name, known, seen);
    const local = facts.localExports[name];
    if (local !== undefined) {
      const imported = facts.imports[local];
      return imported ? this.fromModule(file, imported.module, imported.name, known, seen) : undefined;
    }
    for (const star of facts.stars) {
      const found = this.fromModule(file, star, name, known, seen);
      if (found) return found;
    }
    return undefined;
  }

  private fromModule(from: string, module: string, name: string, known: ReadonlySet<string>, seen: Set<string>): string | undefined {
    if (isErgraphModule(module)) return known.has(name) ? name : undefined;
    const target = this.resolveModule(from, module);
    return target ? this.ergraphExport(target, name, known, seen) : undefined;
  }

  /**
   * Does a module export `exported` as ergraph's own `name` from the entry point `entry`
   * (through its re-exports and barrels)? What an import of a new name through the project's
   * barrel needs to be right: `export * from 'ergraph'` reaches every root export, not `ergraph/orm`'s.
   */
  reachesErgraph(file: string, exported: string, name: string, entry: string, seen = new Set<string>()): boolean {
    const key = `${file}\0${exported}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const facts = this.byFile.get(file);
    if (!facts) return false;
    const through = (module: string, imported: string): boolean => {
      if (isErgraphModule(module)) return module === entry && imported === name;
      const target = this.resolveModule(file, module);
      return target !== undefined && this.reachesErgraph(target, imported, name, entry, seen);
    };
    const re = facts.reExports[exported];
    if (re) return through(re.module, re.name);
    const local = facts.localExports[exported];
    if (local !== undefined) {
      const imported = facts.imports[local];
      return imported !== undefined && through(imported.module, imported.name);
    }
    return facts.stars.some((star) => through(star, exported));
  }

  /** Does a module re-export the whole of ergraph (directly or through barrels)? */
  isErgraphBarrel(file: string, seen = new Set<string>()): boolean {
    if (seen.has(file)) return false;
    seen.add(file);
    const facts = this.byFile.get(file);
    if (!facts) return false;
    return facts.stars.some((m) => {
      if (isErgraphModule(m)) return true;
      const target = this.resolveModule(file, m);
      return target !== undefined && this.isErgraphBarrel(target, seen);
    });
  }

  /** The class a name used in `file` refers to: declared there, or imported (through aliases and barrels). */
  classOf(file: string, local: string): ClassRef | undefined {
    const facts = this.byFile.get(file);
    if (!facts) return undefined;
    if (facts.classes.includes(local)) return { file, name: local };
    const imported = facts.imports[local];
    if (!imported) return undefined;
    const target = this.resolveModule(file, imported.module);
    return target ? this.exportedClass(target, imported.name) : undefined;
  }

  /** `ns.Author` where `ns` is a namespace import of a project module. */
  classOfMember(file: string, namespace: string, member: string): ClassRef | undefined {
    const module = this.byFile.get(file)?.namespaces[namespace];
    const target = module ? this.resolveModule(file, module) : undefined;
    return target ? this.exportedClass(target, member) : undefined;
  }

  /** The class a module's exported `name` is, through re-exports and barrels. */
  private exportedClass(file: string, name: string): ClassRef | undefined {
    const found = this.declarationOf(file, name);
    return found && this.byFile.get(found.file)?.classes.includes(found.name) ? found : undefined;
  }

  /** The declaration (file and top-level name) a module's exported `name` stands for, through re-exports, barrels and `export *`. */
  declarationOf(file: string, name: string, seen = new Set<string>()): ClassRef | undefined {
    const key = `${file}\0${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const facts = this.byFile.get(file);
    if (!facts) return undefined;
    const via = (module: string, imported: string): ClassRef | undefined => {
      const target = this.resolveModule(file, module);
      return target ? this.declarationOf(target, imported, seen) : undefined;
    };
    const local = facts.localExports[name];
    if (local !== undefined) {
      const imported = facts.imports[local];
      return imported ? via(imported.module, imported.name) : { file, name: local };
    }
    const re = facts.reExports[name];
    // `export * as ns from`: a namespace, not a declaration.
    if (re) return re.name === '*' ? undefined : via(re.module, re.name);
    for (const star of facts.stars) {
      const found = via(star, name);
      if (found) return found;
    }
    return undefined;
  }
}

/** Everything a transform knows about the project when it runs alone on one file. */
export const EMPTY_PROJECT = new Project([]);
