/**
 * Client names come from a request header: untrusted text of any length. Before it is stored,
 * counted, put in a metric or shown, a name is cut to a bounded length and every control or
 * invisible formatting character is written out as `\uXXXX`, so a name can neither hide text,
 * break a log line nor grow a row without bound. HTML and Markdown escaping happen where a name
 * is rendered; this only makes it safe to keep.
 */

/** The client name recorded when a request names none. */
export const UNKNOWN_CLIENT = 'unknown';

/** Longest client name kept, in UTF-16 code units after escaping. */
export const MAX_CLIENT_NAME = 100;

// C0 and C1 controls, DEL, and the zero-width / bidirectional formatting characters.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

export function clientName(raw: string | null | undefined): string {
  if (raw == null) return UNKNOWN_CLIENT;
  // Cut before escaping so a 10 kB header costs no more than a short one.
  const escaped = raw
    .slice(0, MAX_CLIENT_NAME * 2)
    .trim()
    .replace(UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  let name = escaped.slice(0, MAX_CLIENT_NAME);
  // Never end inside an escape or a surrogate pair.
  name = name.replace(/\\(u[0-9a-f]{0,3})?$/, '');
  if (/[\ud800-\udbff]$/.test(name)) name = name.slice(0, -1);
  return name === '' ? UNKNOWN_CLIENT : name;
}
