// Corrections on the desk: the newer version first. Pure.

/**
 * Records in feed order -> the same records with each correction placed where the first record
 * it supersedes was, followed by the records it supersedes (record.supersededBy), so a person
 * sees the version to use before the one it replaces. Records whose correction is not in the
 * list keep their place (their banner links to it).
 */
export function newerFirst(records) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const headOf = (r) => {
    const seen = new Set();
    let cur = r;
    while (cur.status === 'superseded' && cur.supersededBy && byId.has(cur.supersededBy) && !seen.has(cur.id)) {
      seen.add(cur.id);
      cur = byId.get(cur.supersededBy);
    }
    return cur;
  };
  const family = new Map();
  for (const r of records) {
    const head = headOf(r);
    if (!family.has(head.id)) family.set(head.id, []);
    if (head !== r) family.get(head.id).push(r);
  }
  const out = [];
  const placed = new Set();
  for (const r of records) {
    const head = headOf(r);
    if (placed.has(head.id)) continue;
    placed.add(head.id);
    out.push(head, ...family.get(head.id));
  }
  return out;
}

/** The batch an item id belongs to (`<batchId>-0001`, src/core/ids.ts itemIdFor). */
export function batchOfItem(itemId) {
  return String(itemId).replace(/-\d{4,}$/, '');
}
