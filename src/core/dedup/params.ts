/**
 * Dedup parameters. SIGNATURE_VERSION, SHINGLE_WORDS, LSH_BANDS and LSH_ROWS decide what is stored
 * in Redis; changing any of them needs a new index (the adapter refuses to mix layouts).
 */
export const SIGNATURE_VERSION = 2;


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
 * Overridden by PHOTOWIRE_DEDUP_THRESHOLD; the Redis index (captionIndexScript.ts, layout v2)
 * computes the same measure, and its key base names the threshold (a change is a new index).
 */
export const DEFAULT_DEDUP_THRESHOLD = 0.5;

/**
 * The old rule (issue 4, index layout v1): plain bigram Jaccard at 0.94 against the canonical
 * caption, different photos on one background paragraph stay apart. Kept only so the bench and
 * tests can state what the old rule missed.
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
 * LSH for captionSimilarity at 0.50 (layout v2): 8 bands of 4 MinHash rows (32 hash functions)
 * plus two anchors, the caption's first and last ANCHOR_TOKENS tokens. A Jaccard pair at 0.6
 * shares a band with probability 1 - (1 - 0.6^4)^8 = 0.66, at 0.7 0.88, at 0.8 0.98; the pairs
 * that score by containment (a cut at 200 characters, an appended or removed sentence, J ~0.35)
 * share an anchor instead. Simulated in bench/dedup/lshPlan.ts and measured on Redis by
 * bench/dedup/run.ts (docs/DEDUP.md): recall vs brute force >= 0.99. 4-row bands let unrelated
 * same-topic captions collide more with every stored cluster; the bucket capacity
 * (DEFAULT_BUCKET_CAPACITY) and verification cap (DEFAULT_MAX_CANDIDATES) bound the work per
 * caption so it stays flat with the index's size.
 */
export const LSH_BANDS = 8;
export const LSH_ROWS = 4;
/** First and last this many tokens are one extra band each ("anchors"); shorter captions have none. */
export const ANCHOR_TOKENS = 12;
/** Most cluster ids one band bucket keeps (oldest dropped). */
export const DEFAULT_BUCKET_CAPACITY = 8;
/** Most candidate clusters verified on their shingles per caption (most band hits first). */
export const DEFAULT_MAX_CANDIDATES = 24;
