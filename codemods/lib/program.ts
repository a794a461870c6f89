/**
 * A TypeScript program over a migration run, for the questions only types answer (which reads are
 * of a typed operation result, `v5-to-v6/reads/checker.ts`). Built on demand, never for a run that
 * does not ask: parsing and binding a tree and its libs costs seconds on a large one.
 */
import { dirname, isAbsolute, join, sep } from 'node:path';
import { SCRIPT_EXTENSIONS, ts } from './parse.js';
import type { Project } from './project.js';
import { libFiles } from './typescript.js';

/** The texts the run's scan read, by file: the program types those, not what is on disk (a step before may have written the file). */
const texts = new WeakMap<Project, Map<string, string>>();
export function rememberText(project: Project, file: string, text: string): void {
  let known = texts.get(project);
  if (!known) texts.set(project, (known = new Map()));
  known.set(file, text);
}

/** Lib files parsed once per process: `lib.dom.d.ts` alone is most of a small program's parse. */
const libSources = new Map<string, ts.SourceFile>();

const isScript = (file: string) => SCRIPT_EXTENSIONS.some((ext) => file.endsWith(ext)) && !file.endsWith('.d.ts');

function commonDir(files: readonly string[]): string {
  let dir = dirname(files[0]!);
  for (const f of files) while (!f.startsWith(dir.endsWith(sep) ? dir : dir + sep) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The nearest tsconfig.json of `file` at or under `root`: one above the run belongs to another project. */
function configOf(file: string, root: string): string | undefined {
  if (!isAbsolute(root)) return undefined;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const config = join(dir, 'tsconfig.json');
    if (ts.sys.fileExists(config)) return config;
    if (dir === root || dirname(dir) === dir || !dir.startsWith(root)) return undefined;
  }
}

/** Options when the project has no tsconfig: enough to type the run's TypeScript and JavaScript. */
const DEFAULTS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.Preserve,
  strict: true,
};

export interface RunProgram {
  program: ts.Program;
  /**
   * Files the program could not parse (nested past the stack: 3,000 nested template literals), by
   * path, with why: left out of the program, so one such file does not stop the checker for the
   * rest. A file of the run among them is one the checker cannot answer for.
   */
  unread: Map<string, string>;
}

/**
 * A program for type questions over the run: the nearest tsconfig.json of each of `near` under the
 * run's root (its files and options) plus the run's script files, or those alone. Files the
 * run's scan read (`rememberText`) are typed as read; TypeScript's lib files come from ts-morph.
 */
export function programOf(near: readonly string[], runFiles: ReadonlySet<string>, project: Project): RunProgram {
  const known = texts.get(project) ?? new Map<string, string>();
  const root = commonDir([...runFiles]);
  const roots = new Set([...runFiles].filter(isScript));
  let options = DEFAULTS;
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  for (const config of new Set(near.flatMap((file) => configOf(file, root) ?? []))) {
    const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, host);
    if (!parsed) continue;
    for (const f of parsed.fileNames) roots.add(f);
    options = parsed.options;
  }
  // Only types are asked: nothing is written, and JavaScript files of the run are typed by inference.
  options = { ...options, noEmit: true, allowJs: true, checkJs: false, skipLibCheck: true, incremental: false, composite: false, declaration: false, emitDeclarationOnly: false };
  const unread = new Map<string, string>();
  return { program: ts.createProgram({ rootNames: [...roots], options, host: hostFor(options, known, unread) }), unread };
}

/**
 * Binds a file on its own, as the checker would when it starts (it skips a file already bound):
 * a file TypeScript parses but cannot bind (a chain of 20,000 property reads) then fails alone,
 * here, instead of taking the checker of the whole run down with it. `bindSourceFile` is
 * TypeScript's internal export (not in its typings); without it the checker binds as usual.
 */
function bindAlone(sf: ts.SourceFile, options: ts.CompilerOptions): void {
  const bind = (ts as unknown as { bindSourceFile?: (sf: ts.SourceFile, options: ts.CompilerOptions) => void }).bindSourceFile;
  bind?.(sf, options);
}

/** The system's files, and TypeScript's lib files from where ts-morph keeps them; a file that does not parse is left out (`unread`). */
function hostFor(options: ts.CompilerOptions, known: ReadonlyMap<string, string>, unread: Map<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const { folder, files } = libFiles();
  const lib = (file: string) => files.get(file.split('\\').join('/'));
  return {
    ...host,
    getDefaultLibLocation: () => folder,
    getDefaultLibFileName: (o) => `${folder}/${ts.getDefaultLibFileName(o)}`,
    fileExists: (file) => lib(file) !== undefined || known.has(file) || host.fileExists(file),
    readFile: (file) => lib(file) ?? known.get(file) ?? host.readFile(file),
    getSourceFile(file, language, onError, fresh) {
      const text = lib(file);
      if (text === undefined) {
        const mine = known.get(file);
        try {
          const sf = mine !== undefined ? ts.createSourceFile(file, mine, language, true) : host.getSourceFile(file, language, onError, fresh);
          if (sf) bindAlone(sf, options);
          return sf;
        } catch (error) {
          // TypeScript's parser and binder recurse once per nesting level; the program goes on without the file.
          unread.set(file, (error as Error).message);
          return undefined;
        }
      }
      const key = `${file}\0${typeof language === 'object' ? language.languageVersion : language}`;
      let sf = libSources.get(key);
      if (!sf) libSources.set(key, (sf = ts.createSourceFile(file, text, language)));
      return sf;
    },
  };
}

