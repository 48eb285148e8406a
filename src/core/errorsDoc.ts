import { ERRORS, ERROR_CODES, type PhotowireCode } from './errors';

/**
 * docs/ERRORS.md, generated from the error table (`npm run docs` writes it; a test fails when the
 * file and the table disagree), so the reference a user reads is the table the code uses.
 */
export function errorsMarkdown(): string {
  const itemCodes = Object.keys(ERROR_CODES) as PhotowireCode[];
  const programCodes = (Object.keys(ERRORS) as PhotowireCode[]).filter((c) => !itemCodes.includes(c));
  const row = (code: PhotowireCode): string => {
    const s = ERRORS[code];
    const meaning = (s.doc ?? s.message).replace(/\|/g, '\\|').replace(/\n/g, ' ');
    return `| \`${code}\` | ${meaning} | ${s.retryable ? 'yes' : 'no'} | ${s.exitCode} | ${s.httpStatus} |`;
  };
  const table = (codes: PhotowireCode[]): string =>
    ['| code | meaning | retryable | exit | HTTP |', '|---|---|---|---|---|', ...codes.map(row)].join('\n');
  return `# Error codes

<!-- Generated from src/core/errors.ts by \`npm run docs\`: edit the table there, not this file. -->

Stable strings, never renamed. *retryable*: a transient fault (network, 5xx, timeouts, storage) that
BullMQ runs again with exponential backoff (\`PHOTOWIRE_ATTEMPTS\`, default 5; a \`FETCH_FAILED\` for a
4xx is not); bad input is never retried. *exit*: the CLI's exit code when it stops on it (0 ok, 1 an
item or feed failed, 2 configuration, services, rules files or usage). *HTTP*: the API's status.
Warning codes (the item is stored, something it carried was cut or skipped) are in
[RECORDS.md](RECORDS.md#input-limits).

## Item and feed codes

An item or a feed fails with these: shown by \`run\`, \`status\`, \`failed\`, \`export\`, in
\`summary.json\` and on the desk, with a message naming the file, the item and the reason.

${table(itemCodes)}

## Program codes

Configuration, services, rules files, usage and the HTTP API.

${table(programCodes)}
`;
}
