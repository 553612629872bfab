import { describe, expect, it } from 'vitest';
import { halfOf } from './halves-lib';
import { decide, fittedSource, onUnseenHalf, readingOf, rewriteScore, sourceHalves, trialValues, type Trial } from './score-fit-lib';

const trial = (value: number, rightA: number, rightB: number, problemsA = 100, problemsB = 100): Trial => ({
  value,
  right: { A: rightA, B: rightB },
  problems: { A: problemsA, B: problemsB },
});

describe('reading a score ablation row', () => {
  it('tells no effect, one half, both halves and a loss apart', () => {
    expect(readingOf({ gainA: 0, gainB: 0, valuesA: 0, valuesB: 0 })).toBe('no effect');
    expect(readingOf({ gainA: 2, gainB: 0, valuesA: 3, valuesB: 0 })).toBe('one half only');
    expect(readingOf({ gainA: 1, gainB: 4, valuesA: 1, valuesB: 5 })).toBe('gains on both halves');
    expect(readingOf({ gainA: 3, gainB: -1, valuesA: 3, valuesB: 0 })).toBe('loses on a half');
  });

  it('counts a right value on a request that fails elsewhere as a gain, and a lost value as a loss', () => {
    expect(readingOf({ gainA: 0, gainB: 1, valuesA: 1, valuesB: 1 })).toBe('gains on both halves');
    expect(readingOf({ gainA: 0, gainB: 0, valuesA: 0, valuesB: 2 })).toBe('one half only');
    expect(readingOf({ gainA: 2, gainB: 2, valuesA: 2, valuesB: -1 })).toBe('loses on a half');
  });
});

describe('a rule read on the half it was not written from', () => {
  const inA = ['bfcl:simple_python_0', 'bfcl:simple_python_1', 'bfcl:simple_python_2', 'bfcl:simple_python_3'].filter(
    (id) => halfOf(id) === 'A',
  );
  const inB = ['bfcl:simple_python_0', 'bfcl:simple_python_1', 'bfcl:simple_python_2', 'bfcl:simple_python_3'].filter(
    (id) => halfOf(id) === 'B',
  );

  it('finds the halves of its source requests', () => {
    expect(inA.length > 0 && inB.length > 0).toBe(true);
    expect(sourceHalves(inA)).toBe('A');
    expect(sourceHalves(inB)).toBe('B');
    expect(sourceHalves([inA[0], inB[0]])).toBe('both');
    expect(sourceHalves(undefined)).toBeUndefined();
  });

  it('reads the gain on the other half only', () => {
    const onlyA = { gainA: 2, gainB: 0, valuesA: 2, valuesB: 0 };
    expect(onUnseenHalf(onlyA, 'A')).toBe('nothing');
    expect(onUnseenHalf(onlyA, 'B')).toBe('gains');
    expect(onUnseenHalf({ gainA: 0, gainB: 0, valuesA: 0, valuesB: 1 }, 'A')).toBe('gains');
    expect(onUnseenHalf({ gainA: 3, gainB: 1, valuesA: 3, valuesB: -1 }, 'A')).toBe('loses');
    expect(onUnseenHalf(onlyA, 'both')).toBeUndefined();
    expect(onUnseenHalf(onlyA, undefined)).toBeUndefined();
  });
});

describe('the values a score is tried at', () => {
  it('scales the value, rounds to 3 decimals, and leaves out the value itself and repeats', () => {
    expect(trialValues(0.45)).toEqual([0, 0.225, 0.338, 0.563, 0.675, 0.9]);
    expect(trialValues(-0.2)).toEqual([0, -0.1, -0.15, -0.25, -0.3, -0.4]);
    expect(trialValues(0.001)).toEqual([0, 0.002]);
    expect(trialValues(0)).toEqual([]);
  });
});

describe('tune on one half, keep what the other confirms', () => {
  it('keeps the current value when no trial does strictly better on either half', () => {
    const d = decide(trial(0.4, 440, 490), [trial(0, 430, 480), trial(0.6, 440, 490)]);
    expect(d.chosen.A.value).toBe(0.4);
    expect(d.chosen.B.value).toBe(0.4);
    expect(d.kept).toBeUndefined();
  });

  it('keeps a value chosen on A that B confirms, with the figures to write', () => {
    const d = decide(trial(0.45, 439, 490), [trial(0.675, 441, 491), trial(0.9, 442, 485)]);
    expect(d.chosen.A.value).toBe(0.9);
    expect(d.confirmed.A).toBe(false);
    // on B, 0.675 is best; A confirms it (441 > 439)
    expect(d.kept).toMatchObject({ chosenOn: 'B', confirmedOn: 'A', to: { value: 0.675 } });
  });

  it('refuses a change that costs the other half a request, even with fewer problems there', () => {
    const d = decide(trial(1, 300, 300, 50, 50), [trial(2, 305, 299, 45, 40)]);
    expect(d.chosen.A.value).toBe(2);
    expect(d.kept).toBeUndefined();
  });

  it('confirms a change that fixes argument values on the other half without a whole request', () => {
    const d = decide(trial(1, 300, 300, 50, 50), [trial(0.5, 301, 300, 49, 48)]);
    expect(d.kept).toMatchObject({ chosenOn: 'A', confirmedOn: 'B', to: { value: 0.5 } });
  });

  it('takes the change with the larger total gain when both directions confirm', () => {
    const d = decide(trial(1, 300, 300), [trial(0.5, 303, 301), trial(2, 301, 305)]);
    expect(d.confirmed).toEqual({ A: true, B: true });
    expect(d.kept?.to.value).toBe(2);
  });

  it('among trials tied on a half, chooses the one nearest the current value', () => {
    const d = decide(trial(1, 300, 300), [trial(0, 302, 301), trial(0.75, 302, 301)]);
    expect(d.kept?.to.value).toBe(0.75);
  });
});

describe("a fitted score's entry in its data file", () => {
  const file = [
    "import { hand, scoreGroup } from '../../scores.js';",
    '',
    "export const NUMBER_SCORES = scoreGroup('numbers', {",
    "  base: hand(0.45, 'a number span for a numeric parameter'),",
    '  unitBonus: hand(',
    '    0.2,',
    "    'the span is written with the unit the parameter\\'s description names',",
    '  ),',
    '});',
    "export const OTHER = scoreGroup('dates', { base: hand(0.3, 'a date') });",
    "export const COUNTS = scoreGroup('counts', {",
    "  deck: hand(0.35, 'a standard deck', ['bfcl:simple_python_3']),",
    "  die: fitted(0.5, 'a die', 'an earlier fit', SOURCES),",
    '});',
    '',
  ].join('\n');

  it('becomes fitted(value, why, source) with the halves it was chosen and confirmed on', () => {
    const source = fittedSource(
      { from: trial(0.45, 439, 490), to: trial(0.675, 441, 491), chosenOn: 'A', confirmedOn: 'B' },
      { A: 566, B: 580 },
    );
    expect(source).toBe('tools/mapper/ablate-scores.ts --fit; chosen on A (439→441 of 566), confirmed on B (490→491 of 580)');
    const out = rewriteScore(file, 'numbers', 'unitBonus', 0.3, source);
    expect(out).toContain(`unitBonus: fitted(0.3, 'the span is written with the unit the parameter\\'s description names', '${source}'),`);
    expect(out).toContain("base: hand(0.45, 'a number span for a numeric parameter')");
    expect(out).toContain("scoreGroup('dates', { base: hand(0.3, 'a date') })");
    expect(out.split('\n')[0]).toBe("import { fitted, hand, scoreGroup } from '../../scores.js';");
  });

  it('finds the entry in its own group only, and says so when it is not there', () => {
    const out = rewriteScore(file, 'dates', 'base', 0.15, 'x');
    expect(out).toContain("scoreGroup('dates', { base: fitted(0.15, 'a date', 'x') })");
    expect(out).toContain("base: hand(0.45, 'a number span for a numeric parameter')");
    expect(() => rewriteScore(file, 'numbers', 'nosuch', 1, 'x')).toThrow(/no entry "nosuch/);
    expect(() => rewriteScore(file, 'places', 'base', 1, 'x')).toThrow(/scoreGroup\('places'/);
  });

  it('keeps the dev requests the rule was written from', () => {
    expect(rewriteScore(file, 'counts', 'deck', 0.7, 'x')).toContain(
      "deck: fitted(0.7, 'a standard deck', 'x', ['bfcl:simple_python_3']),",
    );
    expect(rewriteScore(file, 'counts', 'die', 0.25, 'y')).toContain("die: fitted(0.25, 'a die', 'y', SOURCES),");
  });

  it('drops hand from the import when no hand-set score is left', () => {
    const one = "import { hand, scoreGroup } from '../../scores.js';\nscoreGroup('dates', { base: hand(0.3, 'a date') });\n";
    expect(rewriteScore(one, 'dates', 'base', 0.6, 'x').split('\n')[0]).toBe("import { fitted, scoreGroup } from '../../scores.js';");
  });
});
