/**
 * The documents `verify` checks, found as `v5-to-v6` finds them: `.graphql`/`.gql` files,
 * documents embedded in scripts and in components' script blocks (`embedded.ts`), and
 * persisted-query manifests. A manifest already migrated has its `<name>.v6-map.json` beside it:
 * that file pairs each old id's v5 document with the v6 one clients now send, and is verified as is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseSource, SCRIPT_EXTENSIONS, lineColumn, ts } from '../lib/parse.js';
import { blockView, isSfc, scriptBlocks, SFC_EXTENSIONS } from '../lib/sfc.js';
import { collectFiles, toPosix, type SkippedEntry } from '../runner/files.js';
import { ignoredByGit } from '../runner/git.js';
import { parseableText } from '../v5-to-v6/embedded.js';
import { DocumentModules } from './imports.js';
import { manifestFormat, mappingFileOf, type PersistedMapping } from '../v5-to-v6/manifest.js';
import { DOCUMENT_HINT } from '../v5-to-v6/untagged.js';
import type { NotRunCause } from './report.js';

export interface FoundDocument {
  /** Relative to cwd, `/` separators. */
  file: string;
  line: number;
  /** The document as the client sends it today (v5). */
  text: string;
  /** The v6 document already written for it (a `.v6-map.json` entry); else it is migrated in memory. */
  v6?: string;
  /** A persisted operation's old id: the compat layer runs it by id, through the mapping. */
  persistedId?: string;
  /** Why it cannot be run as it stands. */
  notRun?: { cause: NotRunCause; reason: string };
}

export interface Found {
  documents: FoundDocument[];
  /** Every mapping read, merged: the compat layer serves old ids from it, as a deployed one would. */
  mapping: Record<string, PersistedMapping[string]>;
  skipped: SkippedEntry[];
}

const GRAPHQL = ['.graphql', '.gql'];
const EXTENSIONS = [...SCRIPT_EXTENSIONS, ...SFC_EXTENSIONS, ...GRAPHQL, '.json'];
const HOLES =
  'its text has `${...}` interpolations that are not documents of this project (parts built at run time, or fragments from a package): verify runs whole documents only; check it by hand';

/** A module of the work tree, if there is one at that path. */
function readIfThere(abs: string): string | undefined {
  try {
    return readFileSync(abs, 'utf8');
  } catch {
    return undefined;
  }
}

function fromScript(sf: ts.SourceFile, abs: string, file: string, into: FoundDocument[], modules: DocumentModules): void {
  for (const doc of modules.documentsOf(abs, sf)) {
    const { line } = lineColumn(sf, doc.start);
    const text = modules.textOf(abs, doc);
    // Unresolved holes blanked, so the report can still name the operations.
    into.push(text === undefined ? { file, line, text: parseableText(doc, false), notRun: { cause: 'unresolved', reason: HOLES } } : { file, line, text });
  }
}

function fromManifest(abs: string, file: string, source: string, found: Found): void {
  const mappingFile = mappingFileOf(abs);
  const at = (needle: string) => source.slice(0, Math.max(source.indexOf(needle), 0)).split('\n').length;
  if (existsSync(mappingFile)) {
    let mapping: PersistedMapping;
    try {
      mapping = JSON.parse(readFileSync(mappingFile, 'utf8')) as PersistedMapping;
    } catch (error) {
      found.skipped.push({ file: `${file} (its .v6-map.json)`, reason: `does not parse: ${(error as Error).message}` });
      return;
    }
    for (const [id, entry] of Object.entries(mapping)) {
      found.mapping[id] = entry;
      found.documents.push({ file, line: at(JSON.stringify(entry.id)), text: entry.v5Body, v6: entry.body, persistedId: id });
    }
    return;
  }
  // Not migrated yet: its documents are v5 documents like any other.
  const value = JSON.parse(source) as Record<string, unknown>;
  const bodies: [string, string][] =
    manifestFormat(source) === 'apollo'
      ? ((value.operations as { id: string; body: string }[]) ?? []).map((op) => [op.id, op.body])
      : Object.entries(value as Record<string, string>);
  for (const [id, body] of bodies) found.documents.push({ file, line: at(JSON.stringify(id)), text: body });
}

/** The documents of one file's text; `manifests: false` reads no JSON (a base commit's manifests are not paired). */
export function documentsOf(abs: string, file: string, source: string, found: Found, modules: DocumentModules, manifests = true): void {
  try {
    if (GRAPHQL.some((e) => abs.toLowerCase().endsWith(e))) {
      if (source.trim()) found.documents.push({ file, line: 1, text: source });
    } else if (abs.toLowerCase().endsWith('.json')) {
      if (manifests && !abs.endsWith('.v6-map.json') && manifestFormat(source)) fromManifest(abs, file, source, found);
    } else if (isSfc(abs)) {
      for (const block of scriptBlocks(source, abs)) fromScript(parseSource(blockView(source, block), abs, block.kind), abs, file, found.documents, modules);
    } else if (/\b(?:gql|graphql)\b/i.test(source) || DOCUMENT_HINT.test(source)) {
      fromScript(parseSource(source, abs), abs, file, found.documents, modules);
    }
  } catch (error) {
    found.skipped.push({ file, reason: (error as Error).message.split('\n')[0]! });
  }
}

export const DOCUMENT_EXTENSIONS = EXTENSIONS;

/** Every document under `paths` (git-ignored files and `ignore` globs skipped, as a migration skips them). */
export function findDocuments(paths: readonly string[], cwd: string, ignore: readonly string[]): Found {
  const { files, skipped } = collectFiles(paths, { cwd, ignore, extensions: EXTENSIONS });
  const ignored = ignoredByGit(files);
  const found: Found = { documents: [], mapping: {}, skipped: [...skipped] };
  const modules = new DocumentModules(readIfThere);
  for (const abs of files) {
    if (ignored.has(abs)) continue;
    documentsOf(abs, toPosix(relative(cwd, abs)), readFileSync(abs, 'utf8'), found, modules);
  }
  return found;
}
