import { EXIT as COMMON_EXIT } from '../src/cli-kit/io.js';

/**
 * `ergraph-migrate`'s exit codes: the common ones, 3 manual work left (or v5 documents pending a
 * v6 schema), and 4 `verify` found an operation whose v6 answer differs from its v5 one.
 */
export const EXIT = { ...COMMON_EXIT, manual: 3, differs: 4 } as const;
