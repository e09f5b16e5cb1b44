import { describe, expect, it } from 'vitest';
import { findPythonJsonError } from '../../src/http/python-json.js';

describe('findPythonJsonError', () => {
  it.each([
    ['', 'Expecting value', 0],
    ['   ', 'Expecting value', 3],
    ['{', 'Expecting property name enclosed in double quotes', 1],
    ['{"a" 1}', "Expecting ':' delimiter", 5],
    ['{"a": 1 "b": 2}', "Expecting ',' delimiter", 8],
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes', 8],
    ['[1, 2,]', 'Expecting value', 6],
    ['[1 2]', "Expecting ',' delimiter", 3],
    ['{"a": "b', 'Unterminated string starting at', 6],
    ['"a\tb"', 'Invalid control character at', 2],
    ['"\\x"', 'Invalid \\escape', 1],
    ['"\\u12g4"', 'Invalid \\uXXXX escape', 1],
    ['{} x', 'Extra data', 3],
    ['tru', 'Expecting value', 0],
    ['{"é": 1,}', 'Expecting property name enclosed in double quotes', 8],
    ['{"😀": 1,}', 'Expecting property name enclosed in double quotes', 8],
  ])('%j → %s at %i', (text, msg, pos) => {
    expect(findPythonJsonError(text)).toEqual({ msg, pos });
  });

  it('accepts what Python accepts', () => {
    for (const text of ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ', 'NaN', '"\\/"']) {
      expect(findPythonJsonError(text)).toBeNull();
    }
  });

  it('survives nesting deeper than its stack', () => {
    expect(findPythonJsonError('['.repeat(200_000))).toEqual({ msg: 'Expecting value', pos: 0 });
  });
});
