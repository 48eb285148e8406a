import type { ClusterView } from '../app/clusters/listClusterView';
import type { ClusterDiff, ClusterWhySchema } from '../schemas/record';
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

/**
 * Why a member joined, on one line: the parts that matched, its background, the edits the rule
 * allowed: `subject matched, background same, function word "a" -> ""`.
 */
export function formatWhy(w: ClusterWhySchema): string {
  const edits = w.edits.map((e) => printable`${e.kind.replace('-', ' ')} "${e.from}" -> "${e.to}"`);
  return [printable`${w.matched.join(' + ')} matched`, printable`background ${w.background}`, ...edits].join(', ');
}

/** One cluster's text: its caption once, then its members with credit, diff and why. */
export function formatCluster(c: ClusterView): string {
  const caption = c.canonicalCaption.length > 160 ? `${c.canonicalCaption.slice(0, 157)}...` : c.canonicalCaption;
  // Captions, credits and the words of a diff are the feeds' text: escaped, so none can move the cursor or start a line.
  const story = c.story ? `  story ${c.story.id} (${c.story.size} caption${c.story.size === 1 ? '' : 's'})` : '';
  let out =
    printable`cluster ${c.id}  ${c.size} caption(s)  canonical ${c.canonicalId}` +
    story +
    printable`\n  "${caption}"\n`;
  for (const m of c.members) {
    const credit = m.credit ? printable`  [${m.credit}]` : '';
    const kind = m.itemId === c.canonicalId ? 'canonical' : m.exact ? 'exact' : `similarity ${m.similarity.toFixed(2)}`;
    out += printable`    ${m.itemId}  ${kind}` + credit + (m.diff ? `  ${formatDiff(m.diff)}` : '') + '\n';
    if (m.why) out += `      why: ${formatWhy(m.why)}\n`;
  }
  return out;
}

/** `photowire clusters` as text: each cluster's caption once, then its members with credit, diff and why. */
export function formatClusters(clusters: ClusterView[], minSize: number): string {
  if (clusters.length === 0)
    return minSize > 1 ? `no clusters of ${minSize} or more (--min-size 1 lists single captions)\n` : 'no clusters\n';
  return clusters.map(formatCluster).join('');
}
