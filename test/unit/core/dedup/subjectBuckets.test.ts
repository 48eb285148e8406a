import { bucketEntry, CLUSTER_ID_CHARS, matchBucket, withoutCluster } from '../../../../src/core/dedup/subjectBuckets';
import { prng } from '../../../../bench/dedup/generateCaptions';
import { segmentKeys, signatureDistance, MAX_SUBSTITUTIONS } from '../../../../src/core/dedup/subjectRule';

const id = (n: number) => n.toString(16).padStart(CLUSTER_ID_CHARS, '0');

describe('a bucket value of the caption-cluster index', () => {
  it('keeps each cluster id with its signature, and finds the ids within two differing characters', () => {
    const value = [
      bucketEntry(id(1), 'ABCDEF'), // the same signature
      bucketEntry(id(2), 'ABCDxy'), // two characters differ
      bucketEntry(id(3), 'AxCyEz'), // three differ: the rule cannot join it
      bucketEntry(id(4), 'ABCDEFG'), // another width: a clashing key's entry
      bucketEntry(id(5), 'ABC'),
    ].join('');
    expect(value).toBe(`${id(1)}ABCDEF;${id(2)}ABCDxy;${id(3)}AxCyEz;${id(4)}ABCDEFG;${id(5)}ABC;`);
    const out = new Set<string>();
    matchBucket(value, 'ABCDEF', out);
    expect([...out]).toEqual([id(1), id(2)]);
    const exact = new Set<string>();
    matchBucket(value, 'ABCDEF', exact, 0);
    expect([...exact]).toEqual([id(1)]);
  });

  it('reads a key with no signature (a head of one content word, or of function words only)', () => {
    const out = new Set<string>();
    matchBucket(`${bucketEntry(id(7), '')}${bucketEntry(id(8), 'Q')}`, '', out);
    expect([...out]).toEqual([id(7)]);
  });

  it('removes every entry of one cluster and keeps the others as they were', () => {
    const value = `${bucketEntry(id(1), 'AB')}${bucketEntry(id(2), 'CD')}${bucketEntry(id(1), 'AB')}`;
    expect(withoutCluster(value, id(1))).toEqual({ value: bucketEntry(id(2), 'CD'), removed: 2 });
    expect(withoutCluster(value, id(9))).toEqual({ value, removed: 0 });
    expect(withoutCluster(bucketEntry(id(2), 'CD'), id(2))).toEqual({ value: '', removed: 1 });
  });
});

describe('segment keys and their signatures', () => {
  const words = 'assange embassy london supporter police media officer ecuador knightsbridge protest flag mask'.split(
    ' ',
  );

  /** Whether two content sequences share a key whose signatures the bucket filter lets through. */
  const found = (a: string[], b: string[]) => {
    const kb = new Map(segmentKeys(b, b).map((k) => [k.key, k.sig]));
    return segmentKeys(a, a).some((k) => {
      const sig = kb.get(k.key);
      return sig !== undefined && signatureDistance(k.sig, sig) <= MAX_SUBSTITUTIONS;
    });
  };

  it('always finds two sequences of one length that differ in at most two positions (the index stays exact)', () => {
    const rnd = prng(27);
    for (let trial = 0; trial < 3000; trial++) {
      const L = 1 + Math.floor(rnd() * 24);
      const a = Array.from({ length: L }, () => words[Math.floor(rnd() * words.length)]);
      const b = [...a];
      // The rule allows at most L - 1 substitutions below 4 words, at most 2 from there.
      const changes = Math.min(Math.floor(rnd() * 3), L - 1);
      for (let c = 0; c < changes; c++) b[Math.floor(rnd() * L)] = `changed${c}`;
      expect({ a, b, found: found(a, b) }).toEqual({ a, b, found: true });
    }
  });

  it('shares a key with a sequence three substitutions away, and the signature turns it away', () => {
    const a = words.slice(0, 12);
    // Positions 0, 1 and 4 (parts 0, 1, 0): the key of parts 2 and 3 is shared, its signature differs in 3.
    const b = a.map((w, p) => ([0, 1, 4].includes(p) ? `other${p}` : w));
    const shared = segmentKeys(a, a).filter((k) => segmentKeys(b, b).some((o) => o.key === k.key));
    expect(shared.map((k) => k.key)).toEqual([
      `12|23|${[2, 6, 10].map((p) => a[p]).join(' ')}|${[3, 7, 11].map((p) => a[p]).join(' ')}`,
    ]);
    expect(found(a, b)).toBe(false);
  });

  it('keys a head of function words only by its whole text, with an empty signature', () => {
    expect(segmentKeys(['in', 'the'], [])).toEqual([{ key: '=in the', sig: '' }]);
  });
});
