/**
 * Text from data (client names, coordinates, paths, documents) in Markdown: nothing in it may
 * become markup. In HTML the pages use `escapeHtml` of src/graphql/page.ts, every page's one escape.
 */
export const md = (s: string): string => s.replace(/[\\`*_[\]|<>&]/g, (c) => `\\${c}`);
/** Inline code; a backtick inside would end it, so it is shown as a quote. */
export const mdCode = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
