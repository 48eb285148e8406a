import { captionParts } from '../../core/dedup/captionParts';
import { storyEvidence, type StoryEvidence } from '../../core/dedup/story';

/**
 * What a cleaned caption brings to story matching: its background and slug as `captionParts`
 * splits them (the caption-cluster rule's own split, so a cluster and its story read the caption
 * the same way). Null when it has neither.
 */
export function captionStoryEvidence(cleanedCaption: string): StoryEvidence | null {
  const parts = captionParts(cleanedCaption);
  return storyEvidence({ subject: parts.subject, background: parts.background, slug: parts.slug });
}
