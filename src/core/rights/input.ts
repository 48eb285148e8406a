import type { SourcedText } from '../../schemas/rights';

/**
 * Everything about one item that rights, release and kill rules read, as the metadata reader and
 * the feed parsers deliver it (docs/RIGHTS.md "What the wiring passes in"). Every field is
 * optional: feeds carry different subsets. Texts are exactly as received.
 */
export interface ItemRightsInput {
  /** Every rights-bearing text, by source (RIGHTS_SOURCES in src/schemas/rights.ts). */
  texts: SourcedText[];
  /** IPTC IIM 2:30/2:35 and 2:37/2:38 as received ("20240310", "000100+0000"; exiftool's "2024:03:10" and "00:01:00+00:00" too). */
  iptc?: {
    releaseDate?: string;
    releaseTime?: string;
    expirationDate?: string;
    expirationTime?: string;
  };
  /** NewsML-G2 item fields. */
  newsml?: {
    guid?: string;
    version?: string;
    /** itemMeta/pubStatus qcode: "stat:usable", "stat:withheld", "stat:canceled". */
    pubStatus?: string;
    /** itemMeta/embargoed: its text; "" when the element is present and empty (embargoed until further notice). */
    embargoed?: string;
    /** itemMeta/signal qcodes ("sig:correction"). */
    signals?: string[];
  };
  /** NITF docdata fields. */
  nitf?: {
    docId?: string;
    /** docdata@management-status: usable, embargoed, withheld, canceled. */
    managementStatus?: string;
    managementDocIdref?: string;
    managementIdrefStatus?: string;
    /** date.release@norm and date.expire@norm ("20020226T093000-0500"). */
    dateRelease?: string;
    dateExpire?: string;
  };
  /** The item's own agency ids: a kill that quotes none targets these. */
  ids?: {
    agencyId?: string | null;
    transmissionReference?: string | null;
  };
  /**
   * When the item was sent or created (UTC ISO or with an offset): the year of "EMBARGOED UNTIL
   * 0001 GMT SATURDAY MARCH 9", the start of "MAY BE USED ONLY FOR 14 DAYS FROM TRANSMISSION".
   */
  referenceTime?: string | null;
  /** The agency id the credit rules found ("AP", "PA"): its zone is used for times written without one. */
  agency?: string | null;
  /** A zone for times written without one, overriding the agency's (IANA name or offset). */
  defaultZone?: string | null;
}
