/**
 * A script parsed once and shared: by the scan and apply of one transform, and by every step of
 * a chain (`upgrade`), which add their edits to one `FileChanges`. Parsing is most of a
 * transform's cost, so this is what makes a five-step chain cost about one parse per file.
 * Running steps over it is `../script-steps.ts`.
 */
import { ergraphImportOf, readErgraphImports, type ErgraphImports } from './ergraph-imports.js';
import { slot } from './nodes.js';
import { parseSource, ts } from './parse.js';
import { EMPTY_PROJECT, type ModuleFacts, type Project } from './project.js';
import { isErgraphModule } from './v6-exports.js';

export interface Script {
  file: string;
  source: string;
  sf: ts.SourceFile;
  project: Project;
  /** The file's ergraph bindings, read once and shared by every step (their `added` names accumulate). */
  readonly imports: ErgraphImports;
}

export function parseScript(source: string, file: string, project: Project = EMPTY_PROJECT, kind?: ts.ScriptKind): Script {
  const sf = parseSource(source, file, kind);
  return scriptOf(sf, project);
}

/**
 * A class rather than an object literal with a getter: V8 builds such a literal as a dictionary,
 * which every read of a held script's fields then goes through.
 */
class SharedScript implements Script {
  readonly file: string;
  readonly source: string;
  #imports: ErgraphImports | undefined = undefined;
  constructor(
    readonly sf: ts.SourceFile,
    public project: Project,
  ) {
    this.file = sf.fileName;
    this.source = sf.text;
  }
  // Read with the project set on the script by then: the runner parses every file before it
  // knows the module graph, then sets it.
  get imports(): ErgraphImports {
    return (this.#imports ??= readErgraphImports(this.sf, this.project));
  }
}

export function scriptOf(sf: ts.SourceFile, project: Project = EMPTY_PROJECT): Script {
  return new SharedScript(sf, project);
}

/**
 * An ergraph export the file binds under a name its text never spells: `import { Diagram } from
 * './lib'` where the barrel says `export { ErDiagram as Diagram } from 'ergraph'`. A step's text
 * test (`wants`) looks for the export's own name, so it cannot see these.
 */
const hidden = slot<Script, boolean>('ergraph.hidden-names');
export function bindsHiddenNames(script: Script): boolean {
  let found = hidden.get(script);
  if (found === undefined) hidden.set(script, (found = script.imports.named.some((b) => !script.source.includes(b.imported))));
  return found;
}

/**
 * `bindsHiddenNames` read from a file's module facts instead of its tree: an ergraph export its
 * imports reach through the project's barrels under a name its text never spells. The runner asks
 * it of files no step's text test wants, to know whether their trees are worth holding. It reads
 * the same bindings as `readErgraphImports` (named imports, destructured `require`), and default
 * imports as well, so it never misses a name that one finds.
 */
export function bindsHiddenNamesIn(facts: ModuleFacts, text: string, project: Project): boolean {
  // Through the barrels only where some module names ergraph (a direct import needs no barrel).
  const throughBarrels = project.namesErgraph();
  for (const local in facts.imports) {
    const { module, name } = facts.imports[local]!;
    if (!throughBarrels && !isErgraphModule(module)) continue;
    const found = ergraphImportOf(project, facts.file, module, name);
    if (found && !text.includes(found.imported)) return true;
  }
  return false;
}
