import { captionWords } from './normalize';
import { captionParts, type CaptionParts } from './captionParts';
import {
  backgroundRelation,
  compareSubjects,
  pickSubjectCluster,
  subjectKeyOfParts,
  type SubjectEdit,
  type SubjectKey,
  type SubjectMatch,
} from './subjectRule';
import { wordDiff, type WordDiff } from './wordDiff';

/**
 * Most edits a `why` holds: the rule allows at most 3 function-word edits and 2 substitutions
 * (subjectRule.ts), so a joined member never has more; the cap keeps the record's bound explicit.
 */
export const MAX_WHY_EDITS = 5;
/** Most characters of one edit's from/to: a caption "word" is feed text of any length. */
export const MAX_WHY_WORD_CHARS = 80;

function clipWord(s: string): string {
  return s.length <= MAX_WHY_WORD_CHARS ? s : `${s.slice(0, MAX_WHY_WORD_CHARS - 1)}…`;
}

/** Why a member joined its cluster: which parts matched, how, and the word diff. */
export interface ClusterWhy {
  /** The parts compared and found the same subject: 'slug' or 'dateline' when the caption has one, then 'subject'. */
  matched: Array<'slug' | 'dateline' | 'subject'>;
  /** Its background sentences against the canonical's. */
  background: 'same' | 'appended' | 'dropped' | 'changed' | 'none';
  /** The head's edits the rule allowed (function words, spellings, numbers). */
  edits: Array<Omit<SubjectEdit, 'kind'> & { kind: 'function-word' | 'spelling' | 'number' }>;
}

/** A caption's place: its cluster, the canonical item, how close, and for a member why it joined. */
export interface SubjectRef {
  id: string;
  canonicalId: string;
  /** 1 - changed head tokens / head tokens: 1 for the same head. */
  similarity: number;
  /** The same words as the canonical caption (case, punctuation, credit and prefixes aside). */
  exact: boolean;
  diff?: WordDiff;
  why?: ClusterWhy;
}

/** One caption as the rule reads it. */
export interface ReadCaption {
  parts: CaptionParts;
  key: SubjectKey;
  /** The normalised caption's words (exactWords: read only for a caption that joins a cluster). */
  words?: string;
}

export function readCaption(caption: string): ReadCaption | null {
  const parts = captionParts(caption);
  const key = subjectKeyOfParts(parts);
  return key === null ? null : { parts, key };
}

/** The normalised caption's words: equal words = an exact duplicate. */
export function exactWords(read: ReadCaption): string {
  read.words ??= captionWords(read.parts.text).join(' ');
  return read.words;
}

/** The reference of a caption that joins the cluster of `canonical` with `match`. */
export function memberRef(
  clusterId: string,
  canonicalId: string,
  canonical: ReadCaption,
  member: ReadCaption,
  match: SubjectMatch,
): SubjectRef {
  if (exactWords(canonical) === exactWords(member)) return { id: clusterId, canonicalId, similarity: 1, exact: true };
  const len = Math.max(canonical.key.tokens.length, member.key.tokens.length);
  const matched: ClusterWhy['matched'] = [];
  if (member.parts.slug !== null) matched.push('slug');
  else if (member.parts.dateline !== null) matched.push('dateline');
  matched.push('subject');
  return {
    id: clusterId,
    canonicalId,
    similarity: Math.max(0, 1 - match.cost / len),
    exact: false,
    diff: wordDiff(canonical.parts.text, member.parts.text),
    why: {
      matched,
      background: backgroundRelation(canonical.parts, member.parts),
      edits: match.edits
        .filter((e): e is ClusterWhy['edits'][number] => e.kind !== 'content')
        .slice(0, MAX_WHY_EDITS)
        .map((e) => ({ kind: e.kind, from: clipWord(e.from), to: clipWord(e.to) })),
    },
  };
}

interface RefCluster {
  id: string;
  canonicalId: string;
  canonical: ReadCaption;
  members: string[];
}

/**
 * Brute force of the caption-cluster rule, no index: every caption is compared with every
 * cluster's canonical caption and joins the best match (fewest changed head tokens, ties to the
 * smaller id), or starts a cluster. Members never extend a cluster (no chaining through a member).
 * The Redis index (captionIndexSubject.ts) must give exactly its answers.
 */
export class SubjectClusterer {
  private readonly clusters = new Map<string, RefCluster>();
  private readonly byItem = new Map<string, SubjectRef | null>();

  assign(itemId: string, caption: string): SubjectRef | null {
    const known = this.byItem.get(itemId);
    if (known !== undefined) return known;
    const read = readCaption(caption);
    const ref = read === null ? null : this.place(itemId, read);
    this.byItem.set(itemId, ref);
    return ref;
  }

  private place(itemId: string, read: ReadCaption): SubjectRef {
    const scored = [...this.clusters.values()].map((c) => ({
      clusterId: c.id,
      c,
      match: compareSubjects(c.canonical.key, read.key),
    }));
    const best = pickSubjectCluster(scored);
    if (best !== null) {
      best.c.members.push(itemId);
      return memberRef(best.c.id, best.c.canonicalId, best.c.canonical, read, best.match);
    }
    const id = read.key.id;
    this.clusters.set(id, { id, canonicalId: itemId, canonical: read, members: [itemId] });
    return { id, canonicalId: itemId, similarity: 1, exact: true };
  }

  /** The partition so far: cluster id -> member item ids in arrival order. */
  partition(): Map<string, string[]> {
    return new Map([...this.clusters.values()].map((c) => [c.id, [...c.members]]));
  }
}
