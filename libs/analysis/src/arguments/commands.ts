/**
 * Value kind "commands and expressions": shell commands, functions of x.
 */
import { type Doc } from '../extract.js';
import { type ParamInfo } from '../schema.js';
import { NOT_COMMAND_START } from './data/ids.js';
import { COMMAND_SCORES } from './data/scores/commands.js';
import { stringParam } from './dispatch.js';
import { type Cand, type ValueKindModule } from './types.js';

/** A relative clause after a parameter's name that ends in its "is": " I ordered is", " that we booked was". */
export const RELATIVE_CLAUSE =
  /^\s+(?:that\s+|which\s+)?(?:i|we|you|they|he|she)\s+\p{L}+(?:ed|ght|nt|ew|ame|ot|ad|id|ade)\s+(?:is|was|are|were)\b/iu;

/** Longest command read after a keyword (bounds the work on long lines). */
const COMMAND_MAX = 300;

/**
 * A command written out for a command parameter: "using the command echo %time%", "with the exact
 * command shutdown /s /t 0", "the instruction del \"x.lnk\"": everything after the word
 * "command"/"instruction" (and an optional ":"), verbatim, to the end of the line. Only for
 * parameters whose name says command, cmd, instruction or script.
 */
export function commandCandidates(p: ParamInfo, doc: Doc): Cand[] {
  if (!p.parts.some((x) => /^(command|commands|cmd|instruction|instructions|script)$/.test(x))) return [];
  const out: Cand[] = [];
  const re = new RegExp(`\\b(?:command|cmd|instruction)s?(?:\\s+line)?\\s*:?[ \\t]+([^\\n]{1,${COMMAND_MAX}})`, 'gi');
  let m: RegExpExecArray | null;
  while ((m = re.exec(doc.text)) !== null) {
    // the next search starts right after this keyword: a later "command" may hold the value
    re.lastIndex = m.index + m[0].length - m[1].length;
    // a line longer than any command is prose, not a command
    if (m[1].length === COMMAND_MAX && m.index + m[0].length < doc.text.length && doc.text[m.index + m[0].length] !== '\n') continue;
    let value = m[1].trim();
    const first = value
      .split(/\s+/)[0]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+$/u, '');
    if (NOT_COMMAND_START.has(first)) continue;
    // a closing sentence mark that is not part of the command ("... /t 0." / "...?")
    value = value.replace(/\s*[?!]+$/, '').replace(/(?<=[\w"')])\.$/, '');
    if (value === '') continue;
    const start = m.index + m[0].length - m[1].length + (m[1].length - m[1].trimStart().length);
    out.push({ param: p, value, score: COMMAND_SCORES.afterKeyword.v, ranges: [[start, start + value.length]], kind: 'command' });
  }
  return out;
}

/** Value kind "math": a function of x. */
export const MATH_KIND: ValueKindModule = {
  name: 'math',
  serves: stringParam,
  propose(p, doc, ctx, out) {
    // a function of x written in the request ("the derivative of 2x^2", "y=3x+2") for a function
    // or expression parameter
    out.push(...mathExpressions(p, doc));
  },
};

/** Name and description words of a parameter that holds a mathematical function or expression. */
const MATH_PARAM = /\b(?:func|function|functions|expression|equation|polynomial|formula)\b/i;

/** One term of a polynomial in x: an optional coefficient, x, an optional power; or a constant. */
// (spaces bounded: unbounded runs are quadratic on a digit before a long run of spaces)
const MATH_TERM = String.raw`(?:\d+(?:\.\d+)?\s{0,3}\*?\s{0,3}x(?:\s{0,3}(?:\^|\*\*)\s{0,3}\d+)?|x(?:\s{0,3}(?:\^|\*\*)\s{0,3}\d+)?|\d+(?:\.\d+)?)`;

/** A function of x as written: terms joined by + - * /, with an x that has a coefficient or power, or an operator. */
const MATH_EXPRESSION = new RegExp(
  String.raw`(?<![\w.^*])(?:[yf]\s{0,3}(?:\(\s{0,3}x\s{0,3}\))?\s{0,3}=\s{0,3})?(${MATH_TERM}(?:\s{0,3}[-+*/]\s{0,3}${MATH_TERM}){0,8})(?![\w^*]|\.\d)`,
  'g',
);

/** Function names and operators that make a polynomial only part of a larger expression. */
const MATH_BEFORE = /(?:[(/*^+-]|\b(?:sin|cos|tan|log|ln|exp|sqrt|e))\s{0,3}$/;

const MATH_AFTER = /^\s{0,3}(?:[(*/^=]|[-+]\s{0,3}[a-wyz(]|(?:sin|cos|tan|log|ln|exp|sqrt)\b)/i;

/**
 * Functions of x written in the request, for a parameter named or described as a function,
 * expression, equation or formula: "2x^2", "y=3x+2" → "3x+2", "f(x) = 3x^2" → "3x^2" (as
 * written, without "y =" or "f(x) ="). A plain number or a lone "x" is no function ("at x = 1"):
 * x must carry a coefficient or a power, or the expression an operator. Strong
 * (commands.mathExpression): the numbers inside belong to the function, not to other parameters.
 */
function mathExpressions(p: ParamInfo, doc: Doc): Cand[] {
  if (p.type !== 'string' || p.enumValues || !MATH_PARAM.test(`${p.parts.join(' ')} ${p.description}`)) return [];
  const found: { text: string; start: number; end: number }[] = [];
  for (const m of doc.text.matchAll(MATH_EXPRESSION)) {
    const expr = m[1];
    // x with a power, or an operator: "2x" alone is a factor ("make it 2x bigger")
    if (!/x/.test(expr) || !/x\s{0,3}(?:\^|\*\*)|[-+*/]/.test(expr)) continue;
    const start = m.index + m[0].length - expr.length;
    // only part of a larger expression: "sin(x) + 3x^2", "1/(x+1)", "e^(2x)", "2x + 3 = 11"
    if (
      MATH_BEFORE.test(doc.text.slice(Math.max(0, m.index - 8), m.index)) ||
      MATH_AFTER.test(doc.text.slice(start + expr.length, start + expr.length + 10))
    )
      continue;
    found.push({ text: expr, start, end: start + expr.length });
  }
  return found.map((f) => ({
    param: p,
    value: f.text,
    score: COMMAND_SCORES.mathExpression.v,
    ranges: [[f.start, f.end]],
    kind: 'math',
  }));
}
