import { readFileSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { decodeFeedText } from '../../core/feeds/decodeFeedText';
import type { NewsmlG2Options } from '../../core/feeds/xml/newsmlG2';

/** A package's item file is a NewsML-G2 document; anything bigger is not read. */
const MAX_REF_BYTES = 16 * 1024 * 1024;

/**
 * The file access a local NewsML-G2 feed may use (src/core/feeds/xml/newsmlG2.ts): item files a
 * package refers to by href, and renditions named by residref beside the feed. Paths come
 * already confined to the feed's folder; here the real path (symlinks followed) must stay
 * inside it too, and only regular files are read.
 */
export function localWireXmlOptions(feedPath: string): NewsmlG2Options {
  const dir = path.dirname(feedPath);
  let realDir: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    return {};
  }
  const regularInside = (file: string): { size: number } | null => {
    try {
      const real = realpathSync(file);
      if (real !== realDir && !real.startsWith(realDir + path.sep)) return null;
      const st = statSync(real);
      return st.isFile() ? { size: st.size } : null;
    } catch {
      return null;
    }
  };
  return {
    localFile: (file) => regularInside(file) !== null,
    readRef: (file) => {
      const st = regularInside(file);
      if (!st || st.size > MAX_REF_BYTES) return null;
      try {
        // UTF-16 or a declared charset, as for the feed itself.
        return decodeFeedText(readFileSync(file), file).text;
      } catch {
        return null;
      }
    },
  };
}
