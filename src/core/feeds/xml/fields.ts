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
