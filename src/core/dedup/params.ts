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
 * Default similarity threshold (Jaccard on word bigrams of the cleaned, normalized caption),
 * overridden by PHOTOWIRE_DEDUP_THRESHOLD. 0.94 sits in the seed's gap: every pair of different
 * captions scores at most 0.923 (02/08, different photos on one background paragraph), every
 * pair of the same caption at least 0.951 (36/38 reworded; 01/11 "A masked supporter"/"Masked
 * supporters" 0.987, 34/35 0.986). With it, the seed's 41 captions form the clusters
 * {01,02,03,07,11} {04,05} {08,09} {34,35} {36,38} and 28 singletons, and no caption is within
 * the threshold of two different clusters, so the partition does not depend on arrival order
 * (it does from 0.92 down, and 36/38 split from 0.96 up). See docs/DEDUP.md.
 */
export const DEFAULT_DEDUP_THRESHOLD = 0.94;

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
