const PLACE_NAME = /^\p{L}[\p{L}\p{M} .'’-]{0,59}$/u;

/**
 * The city of a dateline, only when the dateline says it unambiguously: a bare place name
 * ("LONDON") or a place name followed by a date ("LONDON, July 8"). Anything else ("LONDON
 * (Reuters) -", "Paris, France") yields undefined rather than a guess. Case is kept as sent.
 */
export function cityFromDateline(dateline: string | undefined): string | undefined {
  const value = dateline?.trim();
  if (!value) return undefined;
  const comma = value.indexOf(',');
  const head = (comma === -1 ? value : value.slice(0, comma)).trim();
  if (!PLACE_NAME.test(head)) return undefined;
  if (comma !== -1 && !/\d/.test(value.slice(comma + 1))) return undefined;
  return head;
}
