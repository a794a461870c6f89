/** Where a redirect pointed, resolved against the request (the Location header is the server's text, maybe not a URL). */
export function redirectTarget(location: string | null, url: string): string {
  if (location === null) return 'nowhere (no Location header)';
  return URL.canParse(location, url) ? new URL(location, url).href : JSON.stringify(location);
}
