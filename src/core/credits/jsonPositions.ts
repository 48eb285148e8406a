import { PhotowireError } from '../errors';
/**
 * A small JSON reader that remembers where every value starts, so a rules file can be refused
 * with the line of the offending key. JSON.parse gives no position in Node 20's messages for many
 * errors ("Unexpected token '}', ... is not valid JSON"), so syntax errors are located here too.
 */

export class JsonSyntaxError extends PhotowireError {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super('JSON_SYNTAX', message);
    this.name = 'JsonSyntaxError';
  }
}

export interface PositionedJson {
  value: unknown;
  /** Offset of the value (or of its key, for object members) for each path joined by PATH_SEP. */
  positions: Map<string, number>;
}

export const PATH_SEP = '\u0000';

export function pathKey(path: ReadonlyArray<string | number>): string {
  return path.map(String).join(PATH_SEP);
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

export function parseJsonWithPositions(text: string): PositionedJson {
  const positions = new Map<string, number>();
  let i = 0;

  const fail = (msg: string, at = i): never => {
    throw new JsonSyntaxError(msg, at);
  };
  const describe = (at: number) => (at >= text.length ? 'the end of the file' : `'${text[at]}'`);

  const skipWs = () => {
    while (i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else break;
    }
  };

  const parseString = (): string => {
    const start = i;
    i++; // opening quote
    let out = '';
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          fail('invalid escape in string', i);
        }
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail('unescaped control character (a line break?) in string', i);
      out += c;
      i++;
    }
    return fail('string is never closed', start);
  };

  const parseValue = (path: Array<string | number>): unknown => {
    skipWs();
    if (!positions.has(pathKey(path))) positions.set(pathKey(path), i);
    const c = text[i];
    if (c === '{') return parseObject(path);
    if (c === '[') return parseArray(path);
    if (c === '"') return parseString();
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (lit) {
      i += lit[0].length;
      return JSON.parse(lit[0]);
    }
    return fail(`expected a value but found ${describe(i)}`);
  };

  const parseObject = (path: Array<string | number>): Record<string, unknown> => {
    const obj: Record<string, unknown> = {};
    i++;
    skipWs();
    if (text[i] === '}') {
      i++;
      return obj;
    }
    for (;;) {
      skipWs();
      if (text[i] !== '"') fail(`expected a double-quoted key but found ${describe(i)}`);
      const keyAt = i;
      const key = parseString();
      if (Object.prototype.hasOwnProperty.call(obj, key)) fail(`duplicate key "${key}"`, keyAt);
      positions.set(pathKey([...path, key]), keyAt);
      skipWs();
      if (text[i] !== ':') fail(`expected ':' after key "${key}" but found ${describe(i)}`);
      i++;
      obj[key] = parseValue([...path, key]);
      skipWs();
      if (text[i] === ',') {
        const comma = i;
        i++;
        skipWs();
        if (text[i] === '}') fail('trailing comma before }', comma);
        continue;
      }
      if (text[i] === '}') {
        i++;
        return obj;
      }
      fail(`expected ',' or '}' but found ${describe(i)}`);
    }
  };

  const parseArray = (path: Array<string | number>): unknown[] => {
    const arr: unknown[] = [];
    i++;
    skipWs();
    if (text[i] === ']') {
      i++;
      return arr;
    }
    for (;;) {
      arr.push(parseValue([...path, arr.length]));
      skipWs();
      if (text[i] === ',') {
        const comma = i;
        i++;
        skipWs();
        if (text[i] === ']') fail('trailing comma before ]', comma);
        continue;
      }
      if (text[i] === ']') {
        i++;
        return arr;
      }
      fail(`expected ',' or ']' but found ${describe(i)}`);
    }
  };

  if (text.charCodeAt(0) === 0xfeff) i = 1; // a BOM some editors write
  const value = parseValue([]);
  skipWs();
  if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
  return { value, positions };
}
