import { MAX_SUBSTITUTIONS } from './subjectRule';

/**
 * The value of one bucket field of the caption-cluster index: entries `<cluster id><signature>;`,
 * appended as clusters are created. The id is 16 characters; the signature (SegmentKey.sig) has one
 * character per content position outside the key's parts, so every entry of one key has the same
 * length. An entry of another length belongs to another key whose field hash clashed with this
 * one: it is skipped (that cluster, if the rule joins it, shares a key of its own with the head).
 */
export const CLUSTER_ID_CHARS = 16;
const SEPARATOR = ';';

export function bucketEntry(clusterId: string, sig: string): string {
  return `${clusterId}${sig}${SEPARATOR}`;
}

/**
 * Adds to `out` the cluster ids of the entries whose signature differs from `sig` in at most `max`
 * characters: the only entries of the bucket the rule can join to the head (equal words give
 * equal characters). Reads the value in place: no string per entry but the ids kept.
 */
export function matchBucket(value: string, sig: string, out: Set<string>, max = MAX_SUBSTITUTIONS): void {
  const width = CLUSTER_ID_CHARS + sig.length;
  let pos = 0;
  while (pos < value.length) {
    const end = value.indexOf(SEPARATOR, pos);
    if (end < 0) return;
    // Another width: an entry of a clashing key, skipped.
    if (end - pos === width) {
      let d = 0;
      for (let k = 0; k < sig.length; k++) {
        if (value.charCodeAt(pos + CLUSTER_ID_CHARS + k) !== sig.charCodeAt(k) && ++d > max) break;
      }
      if (d <= max) out.add(value.slice(pos, pos + CLUSTER_ID_CHARS));
    }
    pos = end + 1;
  }
}

/** The value without the entries of one cluster, and how many were removed. */
export function withoutCluster(value: string, clusterId: string): { value: string; removed: number } {
  const entries = value.split(SEPARATOR).filter((e) => e !== '');
  const left = entries.filter((e) => e.slice(0, CLUSTER_ID_CHARS) !== clusterId);
  return {
    value: left.map((e) => `${e}${SEPARATOR}`).join(''),
    removed: entries.length - left.length,
  };
}
