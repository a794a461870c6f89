/**
 * Type-checking user code against the built package, as a user's project does: the files are
 * written into a temporary project whose `node_modules/ergraph` is the built package (see
 * `linkErgraph`), a `tsconfig.json` is generated there, and ONE TypeScript program checks every
 * file, so a whole set of fixtures or apps costs one program's time. The tsconfig stays on disk
 * while the caller keeps the directory: `npx tsc -p <dir>` reproduces any failure by hand.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { linkErgraph, REPO } from './built-package.js';

export interface Diagnostic {
  /** Path relative to the project directory, `/` separators. */
  file: string;
  line: number;
  column: number;
  code: number;
  message: string;
}

/** What a strict TypeScript user of ESM and standard decorators compiles with. */
export const USER_COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  skipLibCheck: true,
  esModuleInterop: true,
  noEmit: true,
  types: ['node'],
  lib: ['ES2023'],
} as const;

/**
 * Writes `files` (relative path → text) under `dir` and links the built package there, plus
 * `packages` the code imports besides ergraph and its peers, from the repository's node_modules.
 */
export function writeProject(dir: string, files: ReadonlyMap<string, string>, packages: readonly string[] = []): void {
  for (const [file, text] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  linkErgraph(dir);
  for (const name of packages) {
    const link = join(dir, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', name), link, 'dir');
  }
}

/**
 * One program over every TypeScript file under `dir` (node_modules excluded), with
 * `compilerOptions` over the defaults above. Returns every diagnostic, paths relative to `dir`.
 */
export function typeCheck(dir: string, compilerOptions: Record<string, unknown> = {}): Diagnostic[] {
  const config = { compilerOptions: { ...USER_COMPILER_OPTIONS, ...compilerOptions }, include: ['**/*.ts', '**/*.mts', '**/*.cts'], exclude: ['node_modules'] };
  const configFile = join(dir, 'tsconfig.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configFile}`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  return [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return {
      file: d.file ? relative(dir, d.file.fileName).split('\\').join('/') : '',
      line: where ? where.line + 1 : 0,
      column: where ? where.character + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
}

export const formatDiagnostic = (d: Diagnostic): string => `${d.file}:${d.line}:${d.column} TS${d.code}: ${d.message}`;
