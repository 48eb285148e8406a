/**
 * Dedup parameters. SIGNATURE_VERSION, SHINGLE_WORDS, LSH_BANDS and LSH_ROWS decide what is stored
 * in Redis; changing any of them needs a new index (the adapter refuses to mix layouts).
 */
export const SIGNATURE_VERSION = 1;


/**
 * Word bigrams. Measured on the seed (bench/dedup/seedSimilarity.ts, plural folding on): the pair
 * the desk treats as the same caption with the lowest similarity is 36/38 (a clause moved:
 * "...would be made about his plea for asylum" / "...about his plea for asylum would be made"),
 * 0.951 with bigrams, 0.905 with trigrams; the most similar pair that is a different photo is
 * 02/08 ("Masked supporters" / "Police officers" on the same background paragraph), 0.923 with
 * bigrams, 0.911 with trigrams. Trigrams and longer rank 36/38 below 02/08, so no threshold
 * separates them. Single words also separate the seed (0.951-0.983) but are a bag of words:
 * word order is lost ("police arrest protesters" == "protesters arrest police") and a different
 * photo, 19/20 ("and his supporters leave" / "leaves"), already scores 0.951. Bigrams also make
 * one changed word cost 2 shingles, so a one-word fix of a 70-word caption still scores >= 0.94.
 */
export const SHINGLE_WORDS = 2;

/**
 * Default threshold of the caption similarity (captionSimilarity() in similarity.ts: bigram
 * Jaccard, or containment less CONTAINMENT_DISCOUNT, whichever is higher), issue 12's meaning of a
 * cluster: the same caption text however it was resent, whichever photo it is on. Chosen on the
 * labelled set of bench/dedup/labelledSet.ts (real captions of the repository with generated wire
 * edits, and different stories in one house template), docs/DEDUP.md has the table:
 * at 0.50 B-cubed F1 0.998, every edit kind >= 0.98, no different-story negative merged; at 0.45
 * the seed's 40 joins 32-38, at 0.55 the seed's 15 and 30 split from their families.
 * Overridden by PHOTOWIRE_DEDUP_THRESHOLD once the Redis index implements this measure; until
 * then the index keeps INDEX_JACCARD_THRESHOLD (docs/DEDUP.md, "What is left").
 */
export const DEFAULT_DEDUP_THRESHOLD = 0.5;

/**
 * What the Redis index (captionIndexScript.ts) still uses: plain bigram Jaccard at 0.94 against
 * the canonical caption, the old meaning (issue 4): different photos on one background
 * paragraph stay apart. Kept until the index's script and LSH are re-tuned for captionSimilarity.
 */
export const INDEX_JACCARD_THRESHOLD = 0.94;

/**
 * Containment counts, discounted: a caption that is another plus a sentence, or another cut at
 * 200 characters, scores containment - 0.2. Measured on the labelled set: 0.15 merges the seed's
 * 40 into 32-38, 0.3 loses appended sentences on short captions (0.994).
 */
export const CONTAINMENT_DISCOUNT = 0.2;

/**
 * Containment applies only when both sets have at least this many shingles: "Julian Assange."
 * is contained in half the seed. 6, 8 and 10 measure the same on the labelled set.
 */
export const MIN_CONTAINED_SHINGLES = 8;

/**
 * A cluster remembers up to this many shingles its members added to the canonical caption (a
 * changed subject line, an appended sentence), so a later caption that is a member cut short or
 * a member with one more edit still counts as contained: on the labelled set, without them
 * truncated captions join 81%, with 64 98%.
 */
export const MAX_EXTRA_SHINGLES = 64;

/**
 * LSH: 8 bands of 8 MinHash rows (64 hash functions). A pair at the threshold (0.94) shares a band
 * with probability 1 - (1 - 0.94^8)^8 = 0.9995 (0.99996 at 0.96); a pair at 0.5 with 0.03, at
 * 0.3 with 0.0005. Long rows matter at scale: the chance that two unrelated captions on the same
 * topic (similarity 0.2-0.4) collide is paid once per stored cluster, so with 5 rows the
 * candidates per caption grew linearly with the index (6 bands x 5 rows: 1.2 at 300k, 1.6 at
 * 400k captions of bench/dedup's generator); with 8 rows they stay flat (0.33 at 300k and at
 * 400k). Each band costs two Redis calls per new caption (~2 us each inside the script) and
 * ~18 bytes of Redis.
 */
export const LSH_BANDS = 8;
export const LSH_ROWS = 8;
