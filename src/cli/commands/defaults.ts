import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { loadConfig } from '../../config';
import { loadDefaultTexts } from '../../core/metadata/defaultTexts';
import {
  dryRunDefaultFields,
  dryRunDefaultLine,
  type DefaultTextVerdict,
} from '../../core/metadata/defaultTextsDryRun';
import { metadataContainer, readImageMetadataBySource } from '../../core/metadata/readImageMetadata';
import { escapeTerminal } from '../../core/terminalText';
import { openInputFiles } from '../inputFiles';

const cut = (s: string, w: number) => (s.length > w ? s.slice(0, w - 1) + '…' : s);

/** One readable row: dropped or kept, by which rule, where the value came from. */
export function defaultsTableRow(input: string, v: DefaultTextVerdict): string {
  const verdict = v.dropped ? `dropped (${v.rule})` : 'kept';
  return `${cut(escapeTerminal(input), 28).padEnd(28)}  ${`${v.source} ${v.field}`.padEnd(18)}  ${verdict.padEnd(32)}  ${escapeTerminal(cut(v.value.replace(/\s+/g, ' '), 60))}\n`;
}

/**
 * The default-text rules' dry run: each argument is an image (its IIM, XMP and EXIF text fields
 * are each shown dropped or kept) or a text file (each line a value, or `field<TAB>value`);
 * stdin is read as lines. A table on a terminal, one JSON object per value otherwise.
 */
export async function defaultsCliCommand(files: string[], opts: { rules?: string; json?: boolean }): Promise<number> {
  const texts = loadDefaultTexts(opts.rules ?? loadConfig().defaultTextRulesPath);
  const table = !opts.json && !!process.stdout.isTTY;
  const write = async (s: string) => {
    if (!process.stdout.write(s)) await once(process.stdout, 'drain');
  };
  const emit = (input: string, v: DefaultTextVerdict) =>
    write(table ? defaultsTableRow(input, v) : JSON.stringify({ input, ...v }) + '\n');
  // Every file opened before the first row: a missing one is a usage error alone on stderr.
  const opened = await openInputFiles('defaults', files);
  let dropped = 0;
  const lines = async (input: string, stream: NodeJS.ReadableStream) => {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      const text = line.replace(/^\uFEFF/, '');
      if (!text.trim() || text.trimStart().startsWith('#')) continue;
      const v = dryRunDefaultLine(texts, text);
      if (v.dropped) dropped++;
      await emit(input === '-' ? text : input, v);
    }
  };
  if (opened.length === 0) await lines('-', process.stdin);
  for (const { file, handle } of opened) {
    const bytes = await readFile(handle);
    await handle.close();
    if (metadataContainer(bytes) === undefined) {
      await lines(file, Readable.from([bytes.toString('utf8')]));
      continue;
    }
    const r = readImageMetadataBySource(bytes, undefined, { defaultTexts: texts });
    for (const v of dryRunDefaultFields(texts, r.bySource)) {
      if (v.dropped) dropped++;
      await emit(file, v);
    }
  }
  if (dropped > 0)
    process.stderr.write(
      `${dropped} value(s) would be dropped as camera or software defaults (rules ${texts.version})\n`,
    );
  return 0;
}
