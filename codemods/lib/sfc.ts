/**
 * The `<script>` blocks of Vue, Svelte and Astro components (and Astro's `---` frontmatter), where
 * their GraphQL documents live (`gql` templates of Apollo, urql, villus, graphql-request). Only
 * where each block's text starts and ends is needed, and in what language it is written, so this
 * reads the tags itself: a component compiler (`@vue/compiler-sfc`, `svelte`) would be a large
 * dependency for three numbers a block.
 *
 * A block is seen as the scripts see it: the file with every character outside the block blanked
 * (line breaks kept), so positions, lines and columns in the block are those of the file.
 */
import { ts } from './parse.js';

export const SFC_EXTENSIONS = ['.vue', '.svelte', '.astro'] as const;

export const isSfc = (file: string): boolean => SFC_EXTENSIONS.some((e) => file.toLowerCase().endsWith(e));

export interface ScriptBlock {
  /** Offsets of the block's text (between `<script ...>` and `</script>`). */
  start: number;
  end: number;
  kind: ts.ScriptKind;
}

const LANGS: Record<string, ts.ScriptKind> = { ts: ts.ScriptKind.TS, tsx: ts.ScriptKind.TSX, js: ts.ScriptKind.JS, jsx: ts.ScriptKind.JSX };

/**
 * Top-level `<script>` blocks, outside HTML comments. A block ends at the first `</script`, as an
 * HTML parser ends raw text (so do Vue's and Svelte's). A block with `src` has no text of its own;
 * one in a language other than JavaScript or TypeScript is not read. An Astro component's
 * frontmatter is a block too, and its scripts are TypeScript unless they say otherwise.
 */
export function scriptBlocks(source: string, file: string): ScriptBlock[] {
  const blocks: ScriptBlock[] = [];
  const astro = file.toLowerCase().endsWith('.astro');
  let from = 0;
  if (astro) {
    const fence = /^(?:\uFEFF)?[ \t]*---[ \t]*\r?\n([\s\S]*?)^[ \t]*---[ \t]*\r?$/m.exec(source);
    if (fence && fence.index === 0) {
      const start = fence[0].indexOf('\n') + 1;
      blocks.push({ start, end: start + fence[1]!.length, kind: ts.ScriptKind.TS });
      from = fence[0].length;
    }
  }
  const tag = /<!--[\s\S]*?(?:-->|$)|<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
  tag.lastIndex = from;
  for (let match = tag.exec(source); match; match = tag.exec(source)) {
    if (match[0].startsWith('<!--')) continue;
    const attributes = match[1] ?? '';
    const start = match.index + match[0].length;
    const close = source.slice(start).search(/<\/script\s*>/i);
    const end = close === -1 ? source.length : start + close;
    tag.lastIndex = end;
    if (close === -1 || /(?:^|\s)src\s*=/i.test(attributes)) continue;
    const lang = /(?:^|\s)lang\s*=\s*["']?([\w-]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? (astro ? 'ts' : 'js');
    const kind = LANGS[lang === 'typescript' ? 'ts' : lang];
    if (kind !== undefined) blocks.push({ start, end, kind });
  }
  return blocks;
}

/** The file as one block's script sees it: every other character blanked, line breaks kept. */
export function blockView(source: string, block: ScriptBlock): string {
  // Line breaks as TypeScript counts them (U+2028 and U+2029 too), so lines stay the file's.
  const blank = (text: string) => text.replace(/[^\r\n\u2028\u2029]/g, ' ');
  return blank(source.slice(0, block.start)) + source.slice(block.start, block.end) + blank(source.slice(block.end));
}
