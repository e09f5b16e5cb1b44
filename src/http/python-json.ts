/**
 * Where and why Python's `json.loads` rejects a document, so that a 422 `json_invalid` carries the
 * same `loc: ["body", <offset>]` and `ctx.error` as the real FastAPI server. Used only after
 * `JSON.parse` has failed; the offset counts code points, as Python does.
 */

/** A JSON decode error as Python's json module reports it. */
export interface PythonJsonError {
  /** The message, e.g. `Expecting value`. */
  msg: string;
  /** Offset of the problem in characters (code points). */
  pos: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const CONSTANTS = ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity'];
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

class Failure extends Error {
  constructor(
    readonly msg: string,
    readonly at: number,
  ) {
    super(msg);
  }
}

/** Finds the first problem Python's json module reports in `text`, or `null` when Python would accept it. */
export function findPythonJsonError(text: string): PythonJsonError | null {
  let i = 0;
  const skip = () => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  const fail = (msg: string, at = i): never => {
    throw new Failure(msg, at);
  };
  const string = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail('Unterminated string starting at', start);
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c.charCodeAt(0) < 0x20) fail('Invalid control character at');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) fail('Unterminated string starting at', start);
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('Invalid \\uXXXX escape');
          i += 6;
          continue;
        }
        if (!SIMPLE_ESCAPES.has(e!)) fail('Invalid \\escape');
        i += 2;
        continue;
      }
      i++;
    }
  };
  const value = (): void => {
    const c = text[i];
    if (c === '"') return string();
    if (c === '{') {
      i++;
      skip();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes');
        string();
        skip();
        if (text[i] !== ':') fail("Expecting ':' delimiter");
        i++;
        skip();
        value();
        skip();
        if (text[i] === '}') {
          i++;
          return;
        }
        if (text[i] !== ',') fail("Expecting ',' delimiter");
        i++;
        skip();
      }
    }
    if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        skip();
        if (text[i] === ']') {
          i++;
          return;
        }
        if (text[i] !== ',') fail("Expecting ',' delimiter");
        i++;
        skip();
      }
    }
    for (const constant of CONSTANTS) {
      if (text.startsWith(constant, i)) {
        i += constant.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) fail('Expecting value');
    i += match![0].length;
  };
  try {
    skip();
    value();
    skip();
    if (i !== text.length) fail('Extra data');
    return null;
  } catch (error) {
    // Nesting too deep for this scanner's stack: report it where the document starts.
    if (!(error instanceof Failure)) return { msg: 'Expecting value', pos: 0 };
    return { msg: error.msg, pos: Array.from(text.slice(0, error.at)).length };
  }
}
