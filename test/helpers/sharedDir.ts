import * as path from 'node:path';

/**
 * The team's shared read-only material as this repository carries it: test/fixtures/shared (the
 * origin of every file in its ORIGIN.md). Tests read only this copy, so a clone runs them as they
 * are. The one place the tests name that folder (benches: bench/common/paths.ts).
 */
export const SHARED_DIR = path.resolve(__dirname, '../fixtures/shared');
