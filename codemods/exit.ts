import { EXIT as COMMON_EXIT } from '../src/cli-kit/io.js';

/** `ergraph-migrate`'s exit codes: the common ones and 3, manual work left (or v5 documents pending a v6 schema). */
export const EXIT = { ...COMMON_EXIT, manual: 3 } as const;
