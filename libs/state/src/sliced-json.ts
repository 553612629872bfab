/** Resolves after a turn of the event loop (the requests waiting in it are answered first). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** JSON's whitespace: space, tab, line feed, carriage return (not JavaScript's wider set: no-break space, BOM, U+2028…). */
function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Whether a text is empty or JSON whitespace alone. */
function onlyJsonSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isJsonSpace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Texts shorter than this (UTF-16 code units) are parsed by one JSON.parse: the 3,091-tool eval
 * corpus's 2.1 MB takes 34 ms so, and 53-69 ms scanned and parsed in slices in a fresh process
 * (test/eval/first-index.bench.ts --only service), where a new snapshot's first search
 * has a budget of 300 ms.
 */
export const SLICED_MIN_LENGTH = 4_000_000;

/**
 * JSON.parse of a JSON array, done `sliceMs` milliseconds at a time (default 8) with a turn of the
 * event loop after each: the text is cut at its top-level commas (a scan that skips strings and
 * counts brackets) and each element parsed alone. A snapshot's blob is one such array, tens of
 * megabytes for a large catalog, and one JSON.parse of it held a service's event loop for
 * 200-400 ms, every other request and the health service waiting.
 * Gives what JSON.parse gives; text that is not an array (after whitespace) is parsed by one
 * JSON.parse, and so is one shorter than `minLength`. Throws SyntaxError for text that is not
 * JSON, as JSON.parse does.
 */
export async function parseJsonArraySliced(text: string, sliceMs = 8, minLength = SLICED_MIN_LENGTH): Promise<unknown> {
  let i = 0;
  const n = text.length;
  // (a short text in one piece: the scan costs more than the wait it saves)
  if (n < minLength) return JSON.parse(text);
  while (i < n && isJsonSpace(text.charCodeAt(i))) i++;
  if (i >= n || text.charCodeAt(i) !== OPEN_BRACKET) return JSON.parse(text);
  const out: unknown[] = [];
  let start = i + 1;
  let depth = 0;
  let closed = false;
  let deadline = performance.now() + sliceMs;
  for (i = i + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // skip the string: to the next quote no backslash escapes
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      continue;
    }
    if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
    else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) depth--;
    else if (c === CLOSE_BRACKET) {
      const piece = text.slice(start, i);
      // "[]" holds no element; "[1,]" is not JSON (JSON.parse of the empty piece says so)
      if (out.length > 0 || !onlyJsonSpace(piece)) out.push(JSON.parse(piece));
      closed = true;
      break;
    } else if (c === CLOSE_BRACE) {
      throw new SyntaxError(`Unexpected token '}' in JSON at position ${i}`);
    } else if (c === COMMA && depth === 0) {
      // ("[,1]" and "[1,,2]": the empty piece is not JSON)
      out.push(JSON.parse(text.slice(start, i)));
      start = i + 1;
      // (the clock read once an element: an element takes microseconds, a slice milliseconds)
      if (performance.now() > deadline) {
        await nextTurn();
        deadline = performance.now() + sliceMs;
      }
    }
  }
  if (!closed) throw new SyntaxError('Unexpected end of JSON input');
  // only whitespace may follow the array
  for (i++; i < n; i++)
    if (!isJsonSpace(text.charCodeAt(i))) throw new SyntaxError(`Unexpected non-whitespace character after JSON at position ${i}`);
  return out;
}
