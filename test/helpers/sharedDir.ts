import * as path from 'node:path';

/**
 * The team's shared read-only material as this repository carries it: test/fixtures/shared (the
 * origin of every file in its ORIGIN.md), so a clone needs no ../shared. PHOTOWIRE_SHARED_DIR
 * points elsewhere (a fuller copy). The one place tests and benches name that folder.
 */
export const SHARED_DIR = process.env.PHOTOWIRE_SHARED_DIR ?? path.resolve(__dirname, '../fixtures/shared');
