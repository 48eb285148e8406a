import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readSeedCaptions } from '../../../../bench/dedup/seedCaptions';
import { captionStoryEvidence } from '../../../../src/app/stories/storyEvidence';
import { SubjectClusterer } from '../../../../src/core/dedup/subjectClusterer';
import {
  referenceStories,
  storyEvidence,
  storyLink,
  STORY_MAX_WORDS,
  type StoryEvidence,
} from '../../../../src/core/dedup/story';

const seed = readSeedCaptions();
const reuters = (
  JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/stories/reuters-arc-photos.json'), 'utf8')) as {
    photos: Array<{ story: string; caption: string }>;
  }
).photos;

const sorted = (groups: string[][]): string[][] =>
  groups.map((g) => [...g].sort()).sort((a, b) => a[0].localeCompare(b[0]));

function seedStories(order: typeof seed = seed): string[][] {
  return sorted(referenceStories(order.map((s) => ({ id: s.n, evidence: captionStoryEvidence(s.raw) }))).stories);
}

/** B-cubed precision and recall of a partition against labels (every item weighs the same). */
function bcubed(groups: string[][], label: (id: string) => string): { precision: number; recall: number } {
  const groupOf = new Map(groups.flatMap((g) => g.map((id) => [id, g] as const)));
  const ids = [...groupOf.keys()];
  let p = 0;
  let r = 0;
  for (const id of ids) {
    const g = groupOf.get(id)!;
    const same = g.filter((o) => label(o) === label(id)).length;
    p += same / g.length;
    r += same / ids.filter((o) => label(o) === label(id)).length;
  }
  return { precision: p / ids.length, recall: r / ids.length };
}

describe('stories of the seed gallery', () => {
  it('makes 01-11 one story, and no other caption joins it', () => {
    const stories = seedStories();
    expect(stories.find((g) => g.includes('01'))).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
    ]);
  });

  it('keeps assignments of other days apart: the May 30 ruling, the February hearing, the June embassy days', () => {
    const stories = seedStories();
    const storyOf = (n: string) => stories.find((g) => g.includes(n))!;
    expect(storyOf('12')).toEqual(['12', '13', '14', '15', '16']); // Supreme Court ruling, May 30 (AFP and Getty)
    expect(storyOf('19')).not.toContain('12'); // the hearing of February 2 shares "Supreme Court ... extradition" with it
    expect(storyOf('32')).toEqual(['32', '33', '34', '35', '36', '37', '38']); // AP, June 22
    expect(storyOf('40')).toEqual(['39', '40', '41']); // AP, June 21
  });

  it('gives the same partition in any arrival order (single link)', () => {
    const reversed = [...seed].reverse();
    const interleaved = [...seed.filter((_, i) => i % 2 === 1), ...seed.filter((_, i) => i % 2 === 0)];
    expect(seedStories(reversed)).toEqual(seedStories());
    expect(seedStories(interleaved)).toEqual(seedStories());
  });

  it('says why each member is in the story: the words it shares with the earlier member it is closest to', () => {
    const items = seed.slice(0, 11).map((s) => ({ id: s.n, evidence: captionStoryEvidence(s.raw) }));
    const via = referenceStories(items).via;
    // 01 founds it; 04 (another paraphrase of the day's news) links to no earlier caption and
    // founds its own, which 06 joins to the first: 06 shares words with both.
    expect(via.get('01')).toBeNull();
    expect(via.get('04')).toBeNull();
    expect(via.get('03')).toMatchObject({ kind: 'words', with: '01', similarity: 1 });
    const v06 = via.get('06')!;
    if (v06.kind !== 'words') throw new Error(`06 joined by ${v06.kind}`);
    expect(v06.with).toBe('04');
    expect(v06.similarity).toBeGreaterThanOrEqual(0.3);
    expect(v06.shared).toEqual(expect.arrayContaining(['ecuadorian', 'authority', 'believe', 'enter', 'embassy']));
  });
});

describe('stories of real agency galleries (Reuters, fixtures/stories)', () => {
  const items = reuters.map((p, i) => ({ id: String(i), evidence: captionStoryEvidence(p.caption) }));
  const { stories, via } = referenceStories(items);
  const label = (id: string) => reuters[Number(id)].story;

  it('groups the football gallery by its slug: sixteen moments of one match, one story, each member via the slug', () => {
    const match = reuters.flatMap((p, i) => (p.caption.startsWith('Soccer Football - ') ? [String(i)] : []));
    expect(match).toHaveLength(16);
    expect(stories.find((g) => g.includes(match[0]))!.sort()).toEqual([...match].sort());
    for (const id of match.slice(1))
      expect(via.get(id)).toMatchObject({
        kind: 'slug',
        text: expect.stringContaining('atletico mineiro v river plate'),
      });
  });

  it('matches the agency stories exactly: festival, river, hurricane and four drought stories of three days', () => {
    const score = bcubed(stories, label);
    expect(score).toEqual({ precision: 1, recall: 1 });
    expect(stories).toHaveLength(new Set(reuters.map((p) => p.story)).size);
  });

  it('never links two different slugs, however many words they share', () => {
    const a = storyEvidence({
      slug: 'Soccer Football - Premier League - Arsenal v Chelsea - Emirates Stadium, London, Britain - March 4, 2023',
      subject: 'Arsenal fans inside the stadium before the match',
      background: '',
    })!;
    const b = storyEvidence({
      slug: 'Soccer Football - Premier League - Fulham v Chelsea - Craven Cottage, London, Britain - March 4, 2023',
      subject: 'Arsenal fans inside the stadium before the match',
      background: '',
    })!;
    expect(storyLink(a, b, 'b')).toBeNull();
    expect(storyLink(a, { ...a }, 'a2')).toMatchObject({ kind: 'slug' });
  });
});

describe('stories hold caption clusters (the cluster rule of src/core/dedup/subjectClusterer.ts)', () => {
  /** Each story's clusters under the cluster rule's oracle, and whether any cluster spans two stories. */
  function clustersByStory(items: Array<{ id: string; caption: string }>) {
    const { stories } = referenceStories(
      items.map((it) => ({ id: it.id, evidence: captionStoryEvidence(it.caption) })),
    );
    const clusterer = new SubjectClusterer();
    const clusterOf = new Map(items.map((it) => [it.id, clusterer.assign(it.id, it.caption)?.id ?? null]));
    const storyOf = new Map(stories.flatMap((g, i) => g.map((id) => [id, i] as const)));
    const spanning = [...clusterer.partition().values()].filter(
      (members) => new Set(members.map((m) => storyOf.get(m))).size > 1,
    );
    return { stories, clusters: (story: string[]) => new Set(story.map((id) => clusterOf.get(id))), spanning };
  }

  it('puts several clusters in the football story: a goal, a coach, fans, a huddle are different pictures of one match', () => {
    const { stories, clusters, spanning } = clustersByStory(
      reuters.map((p, i) => ({ id: String(i), caption: p.caption })),
    );
    const match = stories.find((g) => reuters[Number(g[0])].caption.startsWith('Soccer Football - '))!;
    expect(match).toHaveLength(16);
    expect(clusters(match).size).toBeGreaterThanOrEqual(10);
    expect(spanning).toEqual([]);
  });

  it('puts the seed story 01-11 over its clusters: the masked supporters, the police, the media, the file photo', () => {
    const { stories, clusters, spanning } = clustersByStory(seed.map((s) => ({ id: s.n, caption: s.raw })));
    const story = stories.find((g) => g.includes('01'))!;
    expect(clusters(story).size).toBeGreaterThanOrEqual(3);
    expect(spanning).toEqual([]);
  });
});

describe('story evidence', () => {
  it('caps the words of a long caption and gives none to a caption too short to link on', () => {
    const long = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const e = storyEvidence({ subject: long, background: '' }) as StoryEvidence;
    expect(e.words).toHaveLength(STORY_MAX_WORDS);
    expect(storyEvidence({ subject: 'Police at the scene.', background: '' })).toBeNull();
  });
});
