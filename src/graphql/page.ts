/** What every HTML page ergraph serves shares: escaping, and the icon declared in its head. */

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Three linked entities in the Okabe–Ito colours the ER picture uses. */
const ICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><path d='M8 9 24 12 12 24Z' fill='none' stroke='#4a5568' stroke-width='2'/>" +
  "<circle cx='8' cy='9' r='5' fill='#0072B2'/><circle cx='24' cy='12' r='5' fill='#E69F00'/><circle cx='12' cy='24' r='5' fill='#009E73'/></svg>";

/**
 * The icon, inline: a browser asks the origin for /favicon.ico only when a page declares none,
 * and the origin is the user's server (ergraph's apps are mounted into it), which may have none —
 * every page load then logged a 404. A data: URL needs no route and passes `img-src data:`.
 */
export const ICON_LINK = `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(ICON_SVG)}">`;
