/** Small helpers the feed parsers share to build FeedItem fields. */

export function isString(value: string | undefined): value is string {
  return value !== undefined;
}

export function nonEmpty(values: string[]): string[] | undefined {
  return values.length > 0 ? values : undefined;
}

/** Drop undefined fields so records compare equal whichever format an item came in. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out as T;
}

/** A one-line field (headline, title) with the line breaks and indentation of pretty-printed XML collapsed to single spaces, as captions are normalised. */
export function oneLine(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const collapsed = value.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? undefined : collapsed;
}
