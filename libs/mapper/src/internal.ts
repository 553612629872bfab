// Internal entry of @toolsurface/mapper, for the fitting scripts in tools/ only: the confidence
// model's parts that fit-confidence.ts refits. Product code imports the public entry.
export { confidenceFeatures, CONF_FEATURE_NAMES, conservative, fullCutFor, rawFull, SMALL_SNAPSHOT } from './confidence.js';
export { CANDIDATES_SHOWN, CLOSE_TOOL_CONFIDENCE, heldBackReason } from './mapper.js';
// The shipped calibration with the cross-validated figures of its fit, which eval:unified reports.
export { CALIBRATION } from './calibration.js';
export type { Calibration, CvFigures } from './calibration.js';
