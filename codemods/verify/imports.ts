/**
 * A document as its client sends it: the fragments it pastes in resolved, wherever they live.
 * `${USER_FIELDS}` names a document of the same file, or one imported from another module
 * (`import { USER_FIELDS } from './fragments'`, through barrels, `export *` and tsconfig `paths`),
 * or a `.graphql` file's default export (the webpack/Vite loaders' form); gql.tada and the client
 * preset pass fragments as `graphql(text, [UserFields])`. Modules are read as the run reads them
 * (the work tree, or a commit with `--base`) and each is parsed once. The text is only sent, never
 * written, so fragments pasted twice (two imports of one fragment) are kept once, as graphql-tag does.
 */
import { dirname, resolve } from 'node:path';
import { Kind, parse } from 'graphql';
import { aliasTargets, pathMappingFor } from '../lib/module-paths.js';
import { parseSource, SCRIPT_EXTENSIONS, ts } from '../lib/parse.js';
import { scanModule, type ModuleFacts } from '../lib/project.js';
import { findEmbeddedDocuments, type EmbeddedDocument } from '../v5-to-v6/embedded.js';

/** A module's text (undefined when there is no such file). */
export type ReadText = (abs: string) => string | undefined;

interface Module {
  /** A `.graphql` file's whole text: its default export. */
  graphql?: string;
  facts?: ModuleFacts;
  /** Top-level `const NAME = gql…` of the module, by name. */
  documents: Map<string, EmbeddedDocument>;
  all: EmbeddedDocument[];
}

const GRAPHQL = /\.(?:graphql|gql)$/i;
/** How far a chain of pasted fragments is followed (a cycle ends there too). */
const DEPTH = 8;

/** `const NAME = gql…`: the name a document is interpolated by, else undefined. */
function declaredName(node: ts.Node): string | undefined {
  const parent = node.parent;
  return parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) ? parent.name.text : undefined;
}

function moduleOf(sf: ts.SourceFile, documents = findEmbeddedDocuments(sf)): Module {
  const byName = new Map(documents.flatMap((d) => (declaredName(d.node) ? [[declaredName(d.node)!, d] as const] : [])));
  return { facts: scanModule(sf), documents: byName, all: documents };
}

/** Keeps the first of fragment definitions pasted in more than once; the text as it was when none is. */
function withoutRepeats(text: string): string {
  let document;
  try {
    document = parse(text);
  } catch {
    return text;
  }
  const seen = new Set<string>();
  let repeated = false;
  const kept = document.definitions.filter((d) => {
    if (d.kind !== Kind.FRAGMENT_DEFINITION) return true;
    if (seen.has(d.name.value)) return !(repeated = true);
    seen.add(d.name.value);
    return true;
  });
  return repeated ? kept.map((d) => text.slice(d.loc!.start, d.loc!.end)).join('\n') : text;
}

export class DocumentModules {
  private readonly modules = new Map<string, Module | null>();

  constructor(private readonly read: ReadText) {}

  /** The documents of a script verify parsed itself, registered so that no module is parsed twice. */
  documentsOf(abs: string, sf: ts.SourceFile): EmbeddedDocument[] {
    const module = moduleOf(sf);
    this.modules.set(abs, module);
    return module.all;
  }

  /** The document's text with every fragment it pastes in, or undefined when one cannot be resolved. */
  textOf(abs: string, doc: EmbeddedDocument): string | undefined {
    const text = this.expand(abs, doc, 0);
    return text === undefined ? undefined : withoutRepeats(text);
  }

  private expand(abs: string, doc: EmbeddedDocument, depth: number): string | undefined {
    if (depth > DEPTH) return undefined;
    let text = '';
    let cursor = 0;
    for (const [start, end] of doc.holes) {
      const part = this.named(abs, doc.raw.slice(start + 2, end - 1).trim(), depth);
      if (part === undefined) return undefined;
      text += doc.raw.slice(cursor, start) + part;
      cursor = end;
    }
    text += doc.raw.slice(cursor);
    // `graphql(text, [UserFields, …])`: gql.tada's and the client preset's way of adding fragments.
    const list = ts.isCallExpression(doc.node) ? doc.node.arguments.find(ts.isArrayLiteralExpression) : undefined;
    for (const element of list?.elements ?? []) {
      const part = ts.isIdentifier(element) ? this.named(abs, element.text, depth) : undefined;
      if (part === undefined) return undefined;
      text += `\n${part}`;
    }
    return text;
  }

  /** The text a name of the module stands for: a document of its own, or one it imports. */
  private named(abs: string, local: string, depth: number): string | undefined {
    if (!/^[A-Za-z_$][\w$]*$/.test(local)) return undefined;
    const module = this.module(abs);
    const own = module?.documents.get(local);
    if (own) return this.expand(abs, own, depth + 1);
    const imported = module?.facts?.imports[local];
    return imported && this.exported(abs, imported.module, imported.name, depth + 1);
  }

  /** A module's exported `name` as a document's text, through re-exports and barrels. */
  private exported(from: string, spec: string, name: string, depth: number): string | undefined {
    if (depth > DEPTH) return undefined;
    const abs = this.resolve(from, spec);
    const module = abs === undefined ? undefined : this.module(abs);
    if (!abs || !module) return undefined;
    if (module.graphql !== undefined) return name === 'default' ? module.graphql : undefined;
    const facts = module.facts!;
    const local = facts.localExports[name];
    if (local !== undefined) return this.named(abs, local, depth);
    const re = facts.reExports[name];
    if (re) return re.name === '*' ? undefined : this.exported(abs, re.module, re.name, depth + 1);
    for (const star of facts.stars) {
      const found = this.exported(abs, star, name, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private module(abs: string): Module | undefined {
    if (!this.modules.has(abs)) {
      const text = this.read(abs);
      let module: Module | null = null;
      if (text !== undefined && GRAPHQL.test(abs)) module = { graphql: text, documents: new Map(), all: [] };
      else if (text !== undefined) {
        try {
          module = moduleOf(parseSource(text, abs));
        } catch {
          // A module that does not parse exports no document verify could send.
        }
      }
      this.modules.set(abs, module);
    }
    return this.modules.get(abs) ?? undefined;
  }

  /** The file a specifier names, as TypeScript and bundlers find it: relative or through tsconfig `paths`; packages are not followed. */
  private resolve(from: string, spec: string): string | undefined {
    const bases = spec.startsWith('.') ? [resolve(dirname(from), spec)] : aliasTargetsOf(from, spec);
    for (const base of bases) {
      const stem = base.replace(/\.(?:[cm]?js|jsx)$/, '');
      const candidates = [base, ...SCRIPT_EXTENSIONS.map((e) => stem + e), ...SCRIPT_EXTENSIONS.map((e) => `${base}/index${e}`)];
      const found = candidates.find((c) => (GRAPHQL.test(c) || SCRIPT_EXTENSIONS.some((e) => c.endsWith(e))) && this.module(c) !== undefined);
      if (found) return found;
    }
    return undefined;
  }
}

function aliasTargetsOf(from: string, spec: string): string[] {
  const mapping = pathMappingFor(from);
  return mapping ? aliasTargets(mapping, spec) : [];
}
