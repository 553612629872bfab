/**
 * Scores of spans.ts: what a typed span of the request (place, date, time, proper name, quoted
 * text, identifier, e-mail address, URL, path) gains or loses as a string parameter's value, on
 * top of its kind's base score (roles) and its name bonus (anchors): cues before it ("from", "to",
 * "in"), what is written around it, and what kind of thing the parameter holds. A penalty is
 * written as a positive value that the rule subtracts. All hand-set when the rules were written,
 * but for the one the fit by dev halves moved (tools/mapper/ablate-scores.ts --fit).
 */
import { fitted, hand, scoreGroup } from '../../scores.js';

export const SPAN_SCORES = scoreGroup('spans', {
  // the span's name bonus and base score (spanCandidate, spanValue)
  dateAnchorShare: fitted(
    0,
    'the share of its name bonus a date or time span keeps (the name is often of another date)',
    'tools/mapper/ablate-scores.ts --fit; chosen on A (405→406 of 566), confirmed on B (446→447 of 580)',
  ),
  otherAnchorShare: fitted(
    0.75,
    'the share of its name bonus a span other than a date or time keeps',
    'tools/mapper/ablate-scores.ts --fit; chosen on A (419→420 of 566), confirmed on B (459→460 of 580)',
  ),
  ipv4FitFloor: hand(0.5, 'the least base score of an IPv4 address for a parameter that holds an IP, host or server address'),
  ipv4ForIpParam: hand(0.3, 'an IPv4 address for a parameter that holds an IP, host or server address'),
  plainIdLabel: hand(0.5, 'name bonus of a number after a bare id label ("ID is 1234") for an id parameter', [
    'bfcl:live_multiple_1026-255-0',
    'bfcl:live_multiple_991-222-0',
  ]),
  bareNumberAnchorCut: hand(0.45, 'the least name bonus a bare number needs to be a string parameter value (written beside its name)', [
    'bfcl:live_simple_0-0-0',
    'bfcl:simple_python_386',
  ]),
  // cues around the span (cueScore)
  streetAddress: hand(0.2, 'a street address for a parameter whose description asks for an address or street', [
    'bfcl:live_multiple_404-140-0',
  ]),
  // place or no place (placeScore)
  placeAfterPlaceWord: hand(0.2, 'a place or name after "in", "at", "near", "from", "to", "of" for a place parameter'),
  placeForNonPlace: hand(0.15, 'penalty: a place for a parameter that holds no place, country or generic string'),
  // the kind of thing the parameter holds (kindScore)
  countryNameForCountry: hand(0.25, "a country's name (or another name of it) for a country parameter", ['bfcl:simple_python_237']),
});
