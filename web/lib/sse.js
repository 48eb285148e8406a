// A parser for text/event-stream, fed chunks as they arrive (fetch can send the
// Authorization header; EventSource cannot). Pure.

/**
 * Returns `push(text)`: call it with each decoded chunk; `onEvent({ event, data, id })` is called
 * for each complete message. Comment lines (": keep-alive") are ignored; a message without an
 * `event:` field is a "message".
 */
export function createSseParser(onEvent) {
  let buffer = '';
  let event = '';
  let data = [];
  let id = '';
  const dispatch = () => {
    if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), id });
    event = '';
    data = [];
  };
  return function push(text) {
    buffer += text;
    // A chunk may end between the \r and \n of one line break: wait for the next chunk to tell.
    const held = buffer.endsWith('\r') ? '\r' : '';
    const lines = (held ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
    // The last piece may be a line cut in the middle: keep it for the next chunk.
    buffer = (lines.pop() ?? '') + held;
    for (const line of lines) {
      if (line === '') {
        dispatch();
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  };
}
