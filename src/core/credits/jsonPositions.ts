import {
  findNodeAtLocation,
  findNodeAtOffset,
  getLocation,
  parseTree,
  ParseErrorCode,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { PhotowireError } from '../errors';

/**
 * Reading a rules file as JSON while remembering where every value starts, so it can be refused
 * with the line of the offending key. The parsing is jsonc-parser's `parseTree` in strict mode (no
 * comments, no trailing commas, no empty file: plain JSON, as before); this module turns its first
 * error into a reason an operator can act on, refuses duplicate keys (JSON.parse keeps the last one
 * silently) and finds a path's offset with `findNodeAtLocation`.
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
  /** Offset of the value at `path` (of its key, for an object member); undefined when the text has no such path. */
  offsetOf(path: ReadonlyArray<string | number>): number | undefined;
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

export function parseJsonWithPositions(input: string): PositionedJson {
  // A BOM some editors write: blanked, so offsets stay those of the file.
  const text = input.charCodeAt(0) === 0xfeff ? ` ${input.slice(1)}` : input;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || root === undefined) {
    const { message, offset } = explain(
      text,
      errors[0] ?? { error: ParseErrorCode.ValueExpected, offset: text.length, length: 0 },
      root,
    );
    throw new JsonSyntaxError(message, offset);
  }
  const value = valueOf(root);
  return {
    value,
    offsetOf: (path) => {
      const node = findNodeAtLocation(root, [...path]);
      if (node === undefined) return undefined;
      return node.parent?.type === 'property' ? node.parent.offset : node.offset;
    },
  };
}

/** The node's value as plain objects and arrays; a key given twice is refused at its second occurrence. */
function valueOf(node: Node): unknown {
  if (node.type === 'array') return (node.children ?? []).map(valueOf);
  if (node.type !== 'object') return node.value;
  const obj: Record<string, unknown> = {};
  for (const prop of node.children ?? []) {
    const [keyNode, valueNode] = prop.children ?? [];
    const key = String(keyNode?.value);
    if (Object.prototype.hasOwnProperty.call(obj, key))
      throw new JsonSyntaxError(`duplicate key "${key}"`, prop.offset);
    // defineProperty: a "__proto__" key is a key like any other (the schema refuses it), not a prototype.
    Object.defineProperty(obj, key, {
      value: valueNode ? valueOf(valueNode) : undefined,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return obj;
}

/** jsonc-parser's first error as a reason and the offset to report it at. */
function explain(text: string, err: ParseError, root: Node | undefined): { message: string; offset: number } {
  const at = err.offset;
  const found = (o: number) => (o >= text.length ? 'the end of the file' : `'${text[o]}'`);
  const container = (): '}' | ']' => {
    let n = root && findNodeAtOffset(root, at, true);
    while (n && n.type !== 'object' && n.type !== 'array') n = n.parent;
    return n?.type === 'array' ? ']' : '}';
  };
  const commaOrClose = (close: '}' | ']') => ({
    message: `expected ',' or '${close}' but found ${found(at)}`,
    offset: at,
  });
  switch (err.error) {
    case ParseErrorCode.PropertyNameExpected:
    case ParseErrorCode.ValueExpected: {
      const c = text[at];
      let before = at - 1;
      while (before >= 0 && /\s/.test(text[before]!)) before--;
      if ((c === '}' || c === ']') && text[before] === ',')
        return { message: `trailing comma before ${c}`, offset: before };
      const key = err.error === ParseErrorCode.PropertyNameExpected || getLocation(text, at).isAtPropertyKey;
      const what = key ? 'a double-quoted key' : 'a value';
      return { message: `expected ${what} but found ${found(at)}`, offset: at };
    }
    case ParseErrorCode.InvalidSymbol: {
      if (root && at >= root.offset + root.length)
        return { message: `unexpected ${found(at)} after the end of the JSON value`, offset: at };
      const loc = getLocation(text, at);
      if (loc.isAtPropertyKey) return { message: `expected a double-quoted key but found ${found(at)}`, offset: at };
      if (loc.previousNode !== undefined) return commaOrClose(container());
      return { message: `expected a value but found ${found(at)}`, offset: at };
    }
    case ParseErrorCode.CommaExpected:
      return commaOrClose(container());
    case ParseErrorCode.CloseBraceExpected:
      return commaOrClose('}');
    case ParseErrorCode.CloseBracketExpected:
      return commaOrClose(']');
    case ParseErrorCode.ColonExpected: {
      const key = getLocation(text, at).path.at(-1);
      return { message: `expected ':' after key "${String(key)}" but found ${found(at)}`, offset: at };
    }
    case ParseErrorCode.EndOfFileExpected:
      return { message: `unexpected ${found(at)} after the end of the JSON value`, offset: at };
    case ParseErrorCode.InvalidCommentToken:
    case ParseErrorCode.UnexpectedEndOfComment:
      return { message: 'comments are not allowed (a rules file is plain JSON)', offset: at };
    case ParseErrorCode.UnexpectedEndOfString:
    case ParseErrorCode.InvalidCharacter: {
      // The string token stops at a line break (UnexpectedEndOfString) or holds a raw control character (InvalidCharacter).
      for (let o = at + 1; o < Math.min(text.length, at + err.length + 1); o++) {
        if (text.charCodeAt(o) < 0x20)
          return { message: 'unescaped control character (a line break?) in string', offset: o };
      }
      return { message: 'string is never closed', offset: at };
    }
    case ParseErrorCode.InvalidEscapeCharacter:
    case ParseErrorCode.InvalidUnicode:
      return { message: 'invalid escape in string', offset: Math.max(at, text.indexOf('\\', at)) };
    case ParseErrorCode.InvalidNumberFormat:
    case ParseErrorCode.UnexpectedEndOfNumber:
      return { message: 'invalid number', offset: at };
    default:
      return { message: printParseErrorCode(err.error), offset: at };
  }
}
