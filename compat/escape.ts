/** Text from data (client names, coordinates, paths, documents) in HTML and in Markdown: nothing in it may become markup. */

import { escapeHtml } from '../src/graphql/page.js';

/** In HTML (text and attribute values): the pages' one escape. */
export const esc = escapeHtml;

/** In Markdown. */
export const md = (s: string): string => s.replace(/[\\`*_[\]|<>&]/g, (c) => `\\${c}`);
/** Inline code; a backtick inside would end it, so it is shown as a quote. */
export const mdCode = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
