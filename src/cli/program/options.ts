import { InvalidArgumentError } from 'commander';

export const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of 1 or more');
  return n;
};

export const wholeMs = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number of milliseconds');
  return n;
};
/** `--port`: 0 lets the system pick a free port (the log says which). */
export function parsePort(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new InvalidArgumentError('a port number from 0 to 65535 (0: any free port)');
  return n;
}
