/**
 * The quote and semicolon style a project's own formatter settings ask for, for one file: its
 * Prettier configuration (the first one found walking up, as Prettier finds it, with its
 * `overrides`) and EditorConfig's `quote_type`. What is not set there is left to the file's own
 * majority style (`style.ts`).
 *
 * Prettier's own `resolveConfig` is asynchronous, runs JavaScript configs and would have to be
 * the user's copy: a codemod edits files synchronously in worker threads, so the two formats a
 * config is written in without code (JSON, and YAML of flat keys) are read here. A configuration
 * that needs code to read (`prettier.config.js`, a shared config named in package.json, TOML) is
 * not guessed at: the file's own style, which that Prettier produced, decides.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, basename } from 'node:path';
import picomatch from 'picomatch';

export type Quote = "'" | '"';

export interface StyleSettings {
  quote?: Quote;
  semi?: boolean;
}

type PrettierOptions = Record<string, unknown>;
interface PrettierConfig {
  dir: string;
  /** undefined when the configuration cannot be read without running code. */
  options?: PrettierOptions;
}

/** Prettier's search order in one directory (package.json's key first). */
const PRETTIER_FILES = [
  'package.json',
  'package.yaml',
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.json5',
  '.prettierrc.js',
  'prettier.config.js',
  '.prettierrc.ts',
  'prettier.config.ts',
  '.prettierrc.mjs',
  'prettier.config.mjs',
  '.prettierrc.mts',
  'prettier.config.mts',
  '.prettierrc.cjs',
  'prettier.config.cjs',
  '.prettierrc.cts',
  'prettier.config.cts',
  '.prettierrc.toml',
];

/** Top-level `key: value` scalars of a YAML file; nested keys (overrides) are not read. */
function flatYaml(text: string): PrettierOptions {
  const out: PrettierOptions = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(?:(['"])(.*)\2|([^#\s][^#]*?))\s*(?:#.*)?$/.exec(line);
    if (!m) continue;
    const raw = m[3] ?? m[4]!;
    out[m[1]!] = m[2] ? raw : raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  return out;
}

function readPrettierFile(path: string, name: string): PrettierConfig | undefined | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const dir = dirname(path);
  try {
    if (name === 'package.json') {
      const value = (JSON.parse(text) as { prettier?: unknown }).prettier;
      if (value === undefined) return undefined;
      return { dir, options: typeof value === 'object' && value !== null ? (value as PrettierOptions) : undefined };
    }
    if (name === 'package.yaml') return /^prettier\s*:/m.test(text) ? { dir } : undefined;
    if (name === '.prettierrc') return { dir, options: /^\s*\{/.test(text) ? (JSON.parse(text) as PrettierOptions) : flatYaml(text) };
    if (name === '.prettierrc.json' || name === '.prettierrc.json5') return { dir, options: JSON.parse(text) as PrettierOptions };
    if (name.endsWith('.yaml') || name.endsWith('.yml')) return { dir, options: flatYaml(text) };
  } catch {
    // JSON5 beyond JSON, or a broken file: Prettier would fail on the latter; neither is guessed.
  }
  return { dir };
}

const prettierByDir = new Map<string, PrettierConfig | null>();

function prettierConfig(dir: string): PrettierConfig | null {
  const known = prettierByDir.get(dir);
  if (known !== undefined) return known;
  let found: PrettierConfig | null = null;
  for (const name of PRETTIER_FILES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const config = readPrettierFile(path, name);
    if (config) {
      found = config;
      break;
    }
  }
  if (!found) {
    const parent = dirname(dir);
    found = parent === dir ? null : prettierConfig(parent);
  }
  prettierByDir.set(dir, found);
  return found;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

/** Prettier's glob rule: a pattern without a slash matches the file's name in any directory. */
const matches = (rel: string, patterns: readonly string[]): boolean =>
  patterns.some((p) => picomatch.isMatch(p.includes('/') ? rel : basename(rel), p.replace(/^\.\//, ''), { dot: true }));

/** The Prettier options for `file`: the config's own, then every override whose `files` match. */
function prettierOptions(config: PrettierConfig, file: string): PrettierOptions {
  const options: PrettierOptions = { ...config.options };
  const rel = relative(config.dir, file).split('\\').join('/');
  const overrides = Array.isArray(options.overrides) ? (options.overrides as { files?: unknown; excludeFiles?: unknown; options?: PrettierOptions }[]) : [];
  delete options.overrides;
  for (const o of overrides) {
    const files = asList(o.files);
    const excluded = asList(o.excludeFiles);
    if (files.length === 0 || !matches(rel, files)) continue;
    if (matches(rel, excluded)) continue;
    Object.assign(options, o.options);
  }
  return options;
}

interface EditorConfigSection {
  dir: string;
  glob: string;
  props: Record<string, string>;
}

const editorByDir = new Map<string, EditorConfigSection[]>();

/** Sections of every `.editorconfig` from the root-most (or the one saying `root = true`) down to `dir`. */
function editorSections(dir: string): EditorConfigSection[] {
  const known = editorByDir.get(dir);
  if (known) return known;
  let own: EditorConfigSection[] = [];
  let root = false;
  const path = join(dir, '.editorconfig');
  if (existsSync(path)) {
    let section: EditorConfigSection | undefined;
    try {
      for (const raw of readFileSync(path, 'utf8').split(/\r?\n/)) {
        const line = raw.trim();
        if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
        const header = /^\[(.*)\]$/.exec(line);
        if (header) own.push((section = { dir, glob: header[1]!, props: {} }));
        else {
          const kv = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
          if (!kv) continue;
          const key = kv[1]!.toLowerCase();
          const value = kv[2]!.toLowerCase();
          if (section) section.props[key] = value;
          else if (key === 'root' && value === 'true') root = true;
        }
      }
    } catch {
      own = [];
    }
  }
  const parent = dirname(dir);
  const found = root || parent === dir ? own : [...editorSections(parent), ...own];
  editorByDir.set(dir, found);
  return found;
}

/** EditorConfig's `quote_type` for a file (later, nearer sections win). */
function editorQuote(file: string): Quote | undefined {
  let quote: Quote | undefined;
  for (const s of editorSections(dirname(file))) {
    const value = s.props.quote_type;
    if (value !== 'single' && value !== 'double') continue;
    const rel = relative(s.dir, file).split('\\').join('/');
    // A glob without a slash matches the file name in any directory below the .editorconfig.
    if (matches(rel, [s.glob.startsWith('/') ? s.glob.slice(1) : s.glob])) quote = value === 'single' ? "'" : '"';
  }
  return quote;
}

/**
 * What the project's formatter settings say for `file`. Prettier's options win (its defaults,
 * double quotes and semicolons, apply once a readable config is there); EditorConfig's quote
 * type next. Files without a place on disk (named relative to nothing) have no project.
 */
export function configuredStyle(file: string): StyleSettings {
  if (!isAbsolute(file)) return {};
  const out: StyleSettings = {};
  const quote = editorQuote(file);
  if (quote) out.quote = quote;
  const config = prettierConfig(dirname(file));
  if (config?.options) {
    const options = prettierOptions(config, file);
    out.quote = options.singleQuote === true ? "'" : '"';
    out.semi = options.semi !== false;
  }
  return out;
}

/** Forgets what was read from disk (tests that write configurations between runs). */
export function clearStyleConfigCache(): void {
  prettierByDir.clear();
  editorByDir.clear();
}
