import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The built CLI's launcher. */
export const BIN = path.resolve(__dirname, '../../bin/photowire.js');

/**
 * The Node flags the launcher's `#!/usr/bin/env -S node ...` line gives, so a test that starts the
 * CLI with this suite's Node (`process.execPath`, which the shebang may not find first on PATH)
 * runs it with the same heap settings a user's `photowire` gets. A plain `#!/usr/bin/env node`
 * (an older build a benchmark compares against) gives none.
 */
export function binNodeFlags(bin = BIN): string[] {
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0];
  const m = /^#!\/usr\/bin\/env (?:-S )?node((?: --[a-z-]+=\S+)*)$/.exec(first);
  if (!m)
    throw new Error(
      `${bin}: expected '#!/usr/bin/env -S node --flag=value ...' as its first line, found ${JSON.stringify(first)}`,
    );
  return m[1].trim().split(' ').filter(Boolean);
}

/** `[node, ...flags, bin]`: the command line that runs the CLI as its shebang would. */
export function binArgv(bin = BIN): string[] {
  return [process.execPath, ...binNodeFlags(bin), bin];
}
