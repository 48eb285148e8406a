/**
 * A record as a list page carries it: at most LIST_RECORD_MAX_CHARS of JSON. A 30 MB caption once
 * made `GET /api/batches/:id/records?limit=1` answer 125 MB (and the desk 1.6 GB RSS). Stored fields
 * are capped where feeds are read (src/core/feeds/capItems.ts), so a record over this is rare
 * (dozens of long IPTC fields); its long strings are cut to LIST_STRING_CHARS and long lists to
 * LIST_ENTRIES, and it is marked `truncated: true` (the export, records.ndjson, has it whole).
 */
export const LIST_RECORD_MAX_CHARS = 64 * 1024;
const LIST_STRING_CHARS = 1_000;
const LIST_ENTRIES = 50;

export function listRecord<T extends object>(record: T): T & { truncated?: true } {
  if (JSON.stringify(record).length <= LIST_RECORD_MAX_CHARS) return record;
  for (const [chars, entries] of [
    [LIST_STRING_CHARS, LIST_ENTRIES],
    [200, 10],
    [50, 3],
  ] as const) {
    const cut = shrink(record, chars, entries) as T;
    if (JSON.stringify(cut).length <= LIST_RECORD_MAX_CHARS) return { ...cut, truncated: true };
  }
  return { ...(shrink(record, 20, 1) as T), truncated: true };
}

function shrink(v: unknown, chars: number, entries: number): unknown {
  if (typeof v === 'string') return v.length > chars ? `${v.slice(0, chars)}…` : v;
  if (Array.isArray(v)) return v.slice(0, entries).map((x) => shrink(x, chars, entries));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shrink(x, chars, entries)]));
  return v;
}
