/**
 * TypeScript's compiler API (the copy ts-morph ships), loaded with `require`.
 *
 * ts-morph is CommonJS. An ESM `import { ts } from 'ts-morph'` makes Node scan the 950 KB bundle
 * for its export names before anything runs, and that scan was 135–200 ms of every
 * `ergraph-migrate` start: 720 → 520 ms for the import alone on Node 20, 420 → 285 ms on Node 22
 * with its compile cache (`bench/codemods.ts` prints the CLI's start against loading ts-morph
 * alone). `require` loads the same module without the scan.
 *
 * The namespace below carries the types the transforms name (`ts.SourceFile`); it holds types
 * only, so it merges with the value. A type missing here is a compile error, never a runtime one.
 */
import { createRequire } from 'node:module';
import type { ts as Ts } from 'ts-morph';

export const ts: typeof Ts = (createRequire(import.meta.url)('ts-morph') as { ts: typeof Ts }).ts;

export declare namespace ts {
  type BinaryExpression = Ts.BinaryExpression;
  type BindingElement = Ts.BindingElement;
  type BindingName = Ts.BindingName;
  type CallExpression = Ts.CallExpression;
  type ClassDeclaration = Ts.ClassDeclaration;
  type ClassLikeDeclaration = Ts.ClassLikeDeclaration;
  type CompilerHost = Ts.CompilerHost;
  type CompilerOptions = Ts.CompilerOptions;
  type CreateSourceFileOptions = Ts.CreateSourceFileOptions;
  type DiagnosticWithLocation = Ts.DiagnosticWithLocation;
  type ExportDeclaration = Ts.ExportDeclaration;
  type ExportSpecifier = Ts.ExportSpecifier;
  type ElementAccessExpression = Ts.ElementAccessExpression;
  type Expression = Ts.Expression;
  type ForInStatement = Ts.ForInStatement;
  type FunctionLikeDeclaration = Ts.FunctionLikeDeclaration;
  type Identifier = Ts.Identifier;
  type ImportDeclaration = Ts.ImportDeclaration;
  type ImportSpecifier = Ts.ImportSpecifier;
  type IndexedAccessTypeNode = Ts.IndexedAccessTypeNode;
  type InterfaceDeclaration = Ts.InterfaceDeclaration;
  type JsonSourceFile = Ts.JsonSourceFile;
  type MethodDeclaration = Ts.MethodDeclaration;
  type MethodSignature = Ts.MethodSignature;
  type NamedExports = Ts.NamedExports;
  type NamedImports = Ts.NamedImports;
  type NewExpression = Ts.NewExpression;
  type NoSubstitutionTemplateLiteral = Ts.NoSubstitutionTemplateLiteral;
  type Node = Ts.Node;
  type NodeArray<T extends Ts.Node> = Ts.NodeArray<T>;
  type ObjectBindingPattern = Ts.ObjectBindingPattern;
  type ParameterDeclaration = Ts.ParameterDeclaration;
  type ObjectLiteralElementLike = Ts.ObjectLiteralElementLike;
  type ObjectLiteralExpression = Ts.ObjectLiteralExpression;
  type Program = Ts.Program;
  type PropertyAccessExpression = Ts.PropertyAccessExpression;
  type PropertyAssignment = Ts.PropertyAssignment;
  type PropertyDeclaration = Ts.PropertyDeclaration;
  type PropertySignature = Ts.PropertySignature;
  type ScriptKind = Ts.ScriptKind;
  type Scanner = Ts.Scanner;
  type SourceFile = Ts.SourceFile;
  type StringLiteral = Ts.StringLiteral;
  type SyntaxKind = Ts.SyntaxKind;
  type Symbol = Ts.Symbol;
  type Type = Ts.Type;
  type TypeReference = Ts.TypeReference;
  type TypeAliasDeclaration = Ts.TypeAliasDeclaration;
  type TypeChecker = Ts.TypeChecker;
  type TypeElement = Ts.TypeElement;
  type TypeLiteralNode = Ts.TypeLiteralNode;
  type TypeNode = Ts.TypeNode;
  type TaggedTemplateExpression = Ts.TaggedTemplateExpression;
  type TemplateExpression = Ts.TemplateExpression;
  type VariableDeclaration = Ts.VariableDeclaration;
  type VariableStatement = Ts.VariableStatement;
}

/**
 * TypeScript's lib files (`lib.es2022.d.ts`, …) for a program: ts-morph keeps them in its
 * `@ts-morph/common` (the `typescript.js` it bundles has none next to it on disk), and loaded once.
 * Resolved from ts-morph's own place, where its package manager put that dependency.
 */
let libs: { folder: string; files: Map<string, string> } | undefined;
export function libFiles(): { folder: string; files: Map<string, string> } {
  if (libs) return libs;
  const fromMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
  const common = fromMorph('@ts-morph/common') as { getLibFiles(): { fileName: string; text: string }[]; libFolderInMemoryPath: string };
  const folder = common.libFolderInMemoryPath;
  libs = { folder, files: new Map(common.getLibFiles().map((f) => [`${folder}/${f.fileName}`, f.text])) };
  return libs;
}
