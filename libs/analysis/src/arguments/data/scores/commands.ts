/**
 * Scores of commands, functions of x and folders (commands.ts): a shell command written after
 * "command", or around "using the … command" / "use … to"; a function of x for an expression
 * parameter; a folder named in words. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const COMMAND_SCORES = scoreGroup('commands', {
  afterKeyword: hand(0.95, 'a command written after the word "command"/"instruction" (and an optional ":"), to the end of the line', [
    'bfcl:live_simple_157-95-14',
    'bfcl:live_simple_166-99-0',
    'bfcl:live_simple_150-95-7',
  ]),
  loneWordWithTarget: hand(
    0.72,
    'a lone command word in "using the X command" with the one URL or path the request gives ("start https://…")',
    ['bfcl:live_simple_146-95-3'],
  ),
  printWithWords: hand(0.72, 'a lone printing command and the short phrase said before it ("say hi using the echo command" → "echo hi")', [
    'bfcl:live_simple_149-95-6',
  ]),
  aroundCommand: hand(
    0.72,
    'a command of two or more words, or holding a symbol, in "using the X command" or "use X to" ("use docker ps to find out")',
    ['bfcl:live_simple_171-99-5', 'bfcl:live_simple_143-95-0', 'bfcl:live_simple_160-95-17'],
  ),
  mathExpression: hand(
    0.8,
    'a function of x written in the request for a parameter named or described as a function, expression, equation or formula',
    ['bfcl:multiple_29', 'bfcl:multiple_33'],
  ),
  mathNthForNumbered: hand(0.05, 'bonus: the n-th function of x written, for the n-th numbered parameter (function1, function2)', [
    'bfcl:multiple_29',
  ]),
  namedFolder: hand(0.55, 'a folder named in words ("the notes folder", "a directory called scratch") for a directory path'),
});
