/**
 * The house goes one way up (issue 16.6): the v6 engine — everything under src/ but the CLI —
 * never loads the v5 compat layer. Compat extends the MCP server from above (it registers its
 * v5 side when loaded), so the import graph of ergraph/mcp has no file under compat/.
 */
import { describe, expect, it } from 'vitest';
import { reachable } from '../support/imports.js';

describe('layering', () => {
  it('ergraph/mcp reaches no file of compat/', () => {
    const files = reachable('src/mcp/index.ts');
    expect(files.has('src/mcp/server.ts')).toBe(true); // the walk does follow imports
    expect([...files].filter((f) => f.startsWith('compat/'))).toEqual([]);
  });

  it('nor do ergraph and ergraph/http', () => {
    for (const entry of ['src/index.ts', 'src/http/index.ts']) {
      expect([...reachable(entry)].filter((f) => f.startsWith('compat/')), entry).toEqual([]);
    }
  });
});
