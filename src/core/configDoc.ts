import { STORAGE_ENV_DOC, configEnvDocs, type EnvDoc } from '../config';

/** Limits no variable changes, listed where the size caps are. */
const FIXED_LIMITS: EnvDoc = {
  default: 'see [Input limits](RECORDS.md#input-limits)',
  meaning: 'per line, per field, per list-page record, and the metadata budgets of one photo',
};

const cell = (text: string): string => text.replace(/\n/g, ' ').replace(/\|/g, '\\|');
const row = (names: string, doc: EnvDoc): string => `| ${names} | ${cell(doc.default)} | ${cell(doc.meaning)} |`;
const code = (names: string[]): string => names.map((n) => `\`${n}\``).join(', ');

/**
 * docs/CONFIGURATION.md, generated from the configuration schema (`npm run docs` writes it; a test
 * fails when the file and the schema disagree), so the table a user reads is the one the code reads.
 * The storage variables make one setting together and follow the data folder's row.
 */
export function configurationMarkdown(): string {
  const rows: string[] = [];
  for (const { env, ...doc } of configEnvDocs()) {
    rows.push(row(code([env]), doc));
    if (env === 'PHOTOWIRE_DATA_DIR') for (const { names, ...d } of STORAGE_ENV_DOC) rows.push(row(code(names), d));
    if (env === 'PHOTOWIRE_MAX_FEED_MB') rows.push(row('(fixed)', FIXED_LIMITS));
  }
  return `# Configuration

<!-- Generated from src/config.ts by \`npm run docs\`: edit the schema there, not this file. -->

Read once at start from the environment and validated; a bad value stops the program with every
bad variable named (exit 2). An empty value counts as unset.

| variable | default | meaning |
|---|---|---|
${rows.join('\n')}
`;
}
