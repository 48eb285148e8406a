import type { ClusterView } from '../app/clusters/listClusterView';
import type { ClusterDiff } from '../schemas/record';
import { printable } from '../core/terminalText';

/** One member's differences on one line: word 2 "supporter" -> "supporters", word 0 -"A", word 9 +"heavily guarded". */
export function formatDiff(d: ClusterDiff): string {
  const runs = d.edits.map((e) => {
    const at = `@${e.at}`;
    if (!e.inserted) return printable`${at} -"${e.deleted}"`;
    if (!e.deleted) return printable`${at} +"${e.inserted}"`;
    return printable`${at} "${e.deleted}" -> "${e.inserted}"`;
  });
  if (d.more > 0) runs.push(`(+${d.more} more)`);
  return runs.length === 0 ? 'same words' : runs.join('; ');
}

/** `photowire clusters` as text: each cluster's caption once, then its members with credit and diff. */
export function formatClusters(clusters: ClusterView[], minSize: number): string {
  if (clusters.length === 0) return minSize > 1 ? `no clusters of ${minSize} or more (--min-size 1 lists single captions)\n` : 'no clusters\n';
  let out = '';
  for (const c of clusters) {
    const caption = c.canonicalCaption.length > 160 ? `${c.canonicalCaption.slice(0, 157)}...` : c.canonicalCaption;
    // Captions, credits and the words of a diff are the feeds' text: escaped, so none can move the cursor or start a line.
    const story = c.story ? `  story ${c.story.id} (${c.story.size} caption${c.story.size === 1 ? '' : 's'})` : '';
    out += printable`cluster ${c.id}  ${c.size} caption(s)  canonical ${c.canonicalId}` + story + printable`\n  "${caption}"\n`;
    for (const m of c.members) {
      const credit = m.credit ? printable`  [${m.credit}]` : '';
      const kind = m.itemId === c.canonicalId ? 'canonical' : m.exact ? 'exact' : `similarity ${m.similarity.toFixed(2)}`;
      out += printable`    ${m.itemId}  ${kind}` + credit + (m.diff ? `  ${formatDiff(m.diff)}` : '') + '\n';
    }
  }
  return out;
}
