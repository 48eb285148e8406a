import { JsonSyntaxError, lineAndColumn, parseJsonWithPositions } from '../../../../src/core/credits/jsonPositions';

/** The rules files' JSON reader (jsonc-parser's parseTree, strict): values, offsets, and refusals at a line. */

function refusal(text: string): { line: number; column: number; message: string } {
  try {
    parseJsonWithPositions(text);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    return { ...lineAndColumn(text, err.offset), message: err.message };
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseJsonWithPositions', () => {
  const text = '{\n  "a": {"b": [1, {"c": 2}]},\n  "d": "e"\n}\n';

  it('reads the value as plain objects and arrays', () => {
    const { value } = parseJsonWithPositions(text);
    expect(value).toEqual({ a: { b: [1, { c: 2 }] }, d: 'e' });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('gives the offset of a key for an object member, of the value for an array element, none for a path not in the text', () => {
    const { offsetOf } = parseJsonWithPositions(text);
    const lineOf = (p: Array<string | number>) => {
      const at = offsetOf(p);
      return at === undefined ? undefined : lineAndColumn(text, at);
    };
    expect(lineOf([])).toEqual({ line: 1, column: 1 });
    expect(lineOf(['a'])).toEqual({ line: 2, column: 3 });
    expect(lineOf(['a', 'b', 1])).toEqual({ line: 2, column: 18 });
    expect(lineOf(['a', 'b', 1, 'c'])).toEqual({ line: 2, column: 19 });
    expect(lineOf(['d'])).toEqual({ line: 3, column: 3 });
    expect(lineOf(['x'])).toBeUndefined();
    expect(lineOf(['a', 'b', 5])).toBeUndefined();
  });

  it('keeps a "__proto__" key as a key (the schema then refuses it), never as the prototype', () => {
    const { value } = parseJsonWithPositions('{"__proto__": {"polluted": true}}');
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect((value as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('reads a file that starts with a BOM, offsets unchanged', () => {
    const withBom = '\ufeff{\n  "a": 1\n}';
    const { value, offsetOf } = parseJsonWithPositions(withBom);
    expect(value).toEqual({ a: 1 });
    expect(lineAndColumn(withBom, offsetOf(['a'])!)).toEqual({ line: 2, column: 3 });
  });

  it.each<[string, string, number, number, string]>([
    ['a trailing comma in an object, at the comma', '{\n  "a": 1,\n}', 2, 9, 'trailing comma before }'],
    ['a trailing comma in an array, at the comma', '{"a": [1, 2,\n]}', 1, 12, 'trailing comma before ]'],
    ['a missing comma', '{\n  "a": 1\n  "b": 2\n}', 3, 3, `expected ',' or '}' but found '"'`],
    ['a missing comma in an array', '[1 2]', 1, 4, `expected ',' or ']' but found '2'`],
    ['an unquoted key', '{a: 1}', 1, 2, `expected a double-quoted key but found 'a'`],
    ['a single-quoted key', "{'a': 1}", 1, 2, `expected a double-quoted key but found '''`],
    ['a missing value', '{"a": }', 1, 7, `expected a value but found '}'`],
    ['a bare word', '{"a": NaN}', 1, 7, `expected a value but found 'N'`],
    ['a missing colon', '{"x": {"a" 1}}', 1, 12, `expected ':' after key "a" but found '1'`],
    ['a line break in a string', '{"a": "x\ny"}', 1, 9, 'unescaped control character (a line break?) in string'],
    ['a string never closed', '{"a": "abc', 1, 7, 'string is never closed'],
    ['a bad escape', '{"a": "\\q"}', 1, 8, 'invalid escape in string'],
    ['an object never closed', '{"a": 1', 1, 8, `expected ',' or '}' but found the end of the file`],
    ['text after the value', '{"a": 1}}', 1, 9, `unexpected '}' after the end of the JSON value`],
    ['an empty file', '  ', 1, 3, 'expected a value but found the end of the file'],
    ['a duplicate key, at its second occurrence', '{\n  "a": 1,\n  "a": 2\n}', 3, 3, 'duplicate key "a"'],
    ['a line comment', '{"a": 1} // note', 1, 10, 'comments are not allowed (a rules file is plain JSON)'],
    ['a block comment', '/* note */ {"a": 1}', 1, 1, 'comments are not allowed (a rules file is plain JSON)'],
  ])('refuses %s, at its line and column', (_what, input, line, column, message) => {
    expect(refusal(input)).toEqual({ line, column, message });
  });
});
