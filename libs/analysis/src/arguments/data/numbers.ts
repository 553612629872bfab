/**
 * Constants of the number rules that are no scores: how numbers are read and rounded.
 */

/**
 * A percent read as a fraction is rounded to this many parts of one, so that float noise does not
 * show ("8.2%" → 0.082, not 0.08199999999999999). Source: hand-set (well inside a double's precision).
 */
export const PERCENT_FRACTION_ROUNDING = 1e12;
