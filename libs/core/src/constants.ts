/** Adaptive mode resolves to discovery at this many bound tools or more (docs/DESIGN.md product rule 1). A platform constant, not a setting. */
export const ADAPTIVE_DISCOVERY_THRESHOLD = 30;

/** unified_tool runs the picked tool only at this confidence or above (docs/DESIGN.md product rule 4). One global constant. */
export const CONFIDENCE_THRESHOLD = 0.7;

/**
 * How unified-mapper's explanation begins when it held back a call it was confident of (a call
 * that would leave out request values, a destructive action on one side only): dispatch passes
 * such an explanation on to the model as the LOW_CONFIDENCE message.
 */
export const UNIFIED_HELD_BACK_PREFIX = 'Not run:';

/**
 * How unified-mapper's explanation begins when no candidate is close to the request (libs/mapper
 * CLOSE_TOOL_CONFIDENCE): dispatch then says that no bound tool seems to serve it, instead of
 * asking for the arguments of an unrelated tool.
 */
export const UNIFIED_NO_CLOSE_TOOL_PREFIX = 'No bound tool seems to serve this request';

/**
 * A confidence in [0, 1] written with two decimals, rounded down: 0.699 (held just under the 0.7
 * threshold) reads "0.69", never "0.70" beside "confidence 0.7 or more". Every text that shows a
 * confidence (dispatch's messages, the CLI) writes it this way, so one call shows one number.
 */
export function confidenceText(c: number): string {
  return (Math.floor(Math.max(0, Math.min(1, Number.isFinite(c) ? c : 0)) * 100 + 1e-9) / 100).toFixed(2);
}
