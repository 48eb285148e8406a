import { z } from 'zod';
import { rightsSourceSchema } from './rights';

/** Where a notice was recognised: a status field or a text. */
export const noticeSourceSchema = z.union([
  rightsSourceSchema,
  z.enum([
    'newsml:pubStatus', // stat:canceled, stat:withheld
    'newsml:signal', // sig:correction
    'nitf:management-status', // canceled, withheld (of this document or of management-doc-idref)
  ]),
]);
export type NoticeSource = z.infer<typeof noticeSourceSchema>;

/**
 * A kill, withdrawal or correction read from one item. `targets` are agency ids (guids,
 * transmission references, ids quoted in the advisory); the wiring finds every record they reach.
 */
export const noticeSchema = z.object({
  kind: z.enum(['kill', 'withdraw', 'correction']),
  /** Agency ids the notice names, in order of appearance, without duplicates. */
  targets: z.array(z.string()),
  /** True when the item's own ids are among the targets (a cancelled guid, a kill with no id quoted). */
  selfTargeted: z.boolean(),
  /** Why, as the agency wrote it (the notice text after its heading), or the status that said it. */
  reason: z.string().nullable(),
  source: noticeSourceSchema,
  /** The text or status value that carried it, as received (a long text is cut at 2,000 characters). */
  text: z.string(),
  /** e.g. "newsml:stat:canceled", "text:heading:MANDATORY KILL", "text:phrase:kill". */
  rule: z.string(),
  /** `low` when no target could be named (not even the item's own id). */
  confidence: z.enum(['high', 'low']),
  rulesVersion: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** The life of a record as far as kills and corrections go. */
export const RECORD_STATUSES = ['active', 'killed', 'withdrawn', 'superseded'] as const;
export const recordStatusSchema = z.enum(RECORD_STATUSES);
export type RecordStatus = z.infer<typeof recordStatusSchema>;

/** The item whose notice changed a record's status, and what it said. */
export const noticeRefSchema = z.object({
  itemId: z.string(),
  batchId: z.string(),
  kind: z.enum(['kill', 'withdraw', 'correction', 'manual']),
  source: noticeSourceSchema,
  text: z.string(),
  targets: z.array(z.string()),
  receivedAt: z.string(),
});
export type NoticeRef = z.infer<typeof noticeRefSchema>;

/** The kill fields a record carries (all optional on the record until the wiring wave sets them). */
export const killStatusSchema = z.object({
  /** active: usable; killed: must be removed everywhere; withdrawn: not to be used; superseded: a correction replaced it. */
  status: recordStatusSchema,
  /** When photowire applied the kill or withdrawal (UTC ISO); null while active. */
  killedAt: z.string().nullable(),
  /** The notice's reason, or the operator's for a manual kill. */
  reason: z.string().nullable(),
  notice: noticeRefSchema.nullable(),
  /** For a superseded record: the item id of the correction that replaced it. */
  supersededBy: z.string().nullable(),
});
export type KillStatus = z.infer<typeof killStatusSchema>;
