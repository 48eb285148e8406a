// Grouping a batch's records by caption cluster, for the grid. Pure.

/**
 * Records in feed order -> groups in feed order (a group sits where its first record is).
 * Records of one caption cluster form a `cluster` group when two or more of them are in the
 * list; everything else (unique captions, captionless and failed items) is a `single` group.
 * `lead` is the record that stands for the group: the cluster's canonical item when it is here,
 * else the first; its caption is the one shown once.
 */
export function groupByCluster(records) {
  const groups = [];
  const byCluster = new Map();
  for (const r of records) {
    const clusterId = r.error ? null : (r.cluster?.id ?? null);
    if (clusterId === null) {
      groups.push({ records: [r], clusterId: null });
      continue;
    }
    let g = byCluster.get(clusterId);
    if (!g) {
      g = { records: [], clusterId };
      byCluster.set(clusterId, g);
      groups.push(g);
    }
    g.records.push(r);
  }
  return groups.map((g) => {
    const isCluster = g.records.length > 1;
    const canonicalId = g.records[0].cluster?.canonicalId;
    const lead =
      (isCluster && g.records.find((r) => r.id === canonicalId && r.status !== 'superseded')) || g.records[0];
    return {
      kind: isCluster ? 'cluster' : 'single',
      key: isCluster ? `cluster:${g.clusterId}` : `item:${lead.id}`,
      clusterId: g.clusterId,
      lead,
      records: g.records,
      count: g.records.length,
      /** Every member's caption is word for word the lead's. */
      allExact: g.records.every((r) => r === lead || r.cluster?.exact === true),
      photos: g.records.filter((r) => r.image).length,
      failed: g.records.filter((r) => r.error).length,
      lowConfidence: g.records.filter((r) => !r.error && r.credit.confidence === 'low').length,
    };
  });
}

/** Counts shown above the grid, from the records (so they follow the search). */
export function recordStats(records) {
  const groups = groupByCluster(records);
  return {
    items: records.length,
    photos: records.filter((r) => r.image).length,
    captionOnly: records.filter((r) => !r.image && !r.error).length,
    failed: records.filter((r) => r.error).length,
    lowConfidence: records.filter((r) => !r.error && r.credit.confidence === 'low').length,
    clusters: groups.filter((g) => g.kind === 'cluster').length,
    duplicates: groups.reduce((n, g) => n + (g.kind === 'cluster' ? g.count - 1 : 0), 0),
  };
}
