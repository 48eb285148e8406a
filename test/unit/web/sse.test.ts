import { loadWebModule } from './loadWebModule';

type Msg = { event: string; data: string; id: string };
const { createSseParser } = loadWebModule<{ createSseParser(on: (m: Msg) => void): (text: string) => void }>(
  'lib/sse.js',
);

function parse(chunks: string[]): Msg[] {
  const out: Msg[] = [];
  const push = createSseParser((m) => out.push(m));
  for (const c of chunks) push(c);
  return out;
}

describe('reading a server-sent event stream', () => {
  it('gives each complete message once, whatever the chunking', () => {
    const stream =
      'retry: 3000\n\nevent: batches\ndata: {"batches":[1]}\n\n: keep-alive\n\nevent: batches\ndata: {"batches":[2]}\n\n';
    const whole = parse([stream]);
    expect(whole).toEqual([
      { event: 'batches', data: '{"batches":[1]}', id: '' },
      { event: 'batches', data: '{"batches":[2]}', id: '' },
    ]);
    // Byte by byte, as a slow proxy might deliver it.
    expect(parse(stream.split(''))).toEqual(whole);
  });

  it('joins multi-line data and reads CRLF line ends, even split between chunks', () => {
    expect(parse(['data: a\r', '\ndata: b\r\n', '\r\n', 'id: 7\ndata:c\n\n'])).toEqual([
      { event: 'message', data: 'a\nb', id: '' },
      { event: 'message', data: 'c', id: '7' },
    ]);
  });

  it('waits for the blank line: a message cut short is not delivered', () => {
    expect(parse(['event: batches\ndata: {"half'])).toEqual([]);
  });
});
