/**
 * How deeply JSON text nests, found by a linear scan of its brackets before anything parses or
 * walks it: the validators, serializers and schema code that walk parsed values recurse, and a
 * value nested thousands of levels deep overflows their stack. Used by the control plane for its
 * request bodies (`deep-json-bodies.ts` there), and by the gateway for MCP requests and backend
 * answers.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Whether `text` opens more than `max` objects or arrays inside one another (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false; // too short to open max + 1
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    } else if (code === QUOTE) {
      at = endOfString(text, at);
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `start` (the text's end when unclosed). */
export function endOfString(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length;
}
