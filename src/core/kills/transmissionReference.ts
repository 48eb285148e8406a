/**
 * Is this agency id a transmission reference that agencies reuse (AP's `NYPS101`, `LON805`,
 * `CPT101`: letters then at most five digits, IIM 2:103 style), rather than an id that names one
 * item for ever (a guid or URN with ':', an EPA/AFP number with more digits, anything longer)?
 * A kill naming a reused reference reaches only records received near the notice
 * (PHOTOWIRE_KILL_REF_WINDOW_HOURS, docs/RIGHTS.md "Reused transmission references").
 */
export function isReusedReference(id: string): boolean {
  return id.length <= 12 && /^[A-Za-z]{1,6}\d{1,5}$/.test(id);
}
