/** Who tests' own writes are by (core takes an explicit author on every write). */
import { authorOf, type WriteOptions } from '../../src/core/history/authors.ts';

export const TEST_AUTHOR = authorOf('cli', 'test');

/** An unconditional write by the tests. */
export const TEST_WRITE: WriteOptions = { author: TEST_AUTHOR };
