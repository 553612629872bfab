/**
 * Scores of commands and functions of x (commands.ts): a shell command written after "command";
 * a function of x for an expression parameter. Hand-set, not yet fitted (issue 41).
 */
import { hand, scoreGroup } from '../../scores.js';

export const COMMAND_SCORES = scoreGroup('commands', {
  afterKeyword: hand(0.95, 'a command written after the word "command"/"instruction" (and an optional ":"), to the end of the line', [
    'bfcl:live_simple_157-95-14',
    'bfcl:live_simple_166-99-0',
    'bfcl:live_simple_150-95-7',
  ]),
  mathExpression: hand(
    0.8,
    'a function of x written in the request for a parameter named or described as a function, expression, equation or formula',
    ['bfcl:multiple_29', 'bfcl:multiple_33'],
  ),
});
