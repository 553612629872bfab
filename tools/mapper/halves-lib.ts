/**
 * The pieces the mapper's ablation scripts share (ablate-modules.ts, ablate-scores.ts): the dev
 * halves (FNV-1a of the request id, even → A, odd → B, as split-eval.ts), one pass of argument
 * mapping with the right tool given over the single-call dev requests, scored by the README
 * checker per half, and the gain cells of their tables.
 */
import { mapArguments } from '@toolsurface/analysis';
import { argumentProblems, fnv1a } from '@toolsurface/eval-kit';
import { EVAL_NOW } from './eval-lib.js';
import { scoringSchema, type EvalData, type QueryRecord } from './data.js';

export type Half = 'A' | 'B';

/** Counts of one run, per half. */
export interface HalfCounts {
  A: number;
  B: number;
}

/** One run: requests fully right, and argument problems (the checker's phrases), per half. */
export interface Run {
  right: HalfCounts;
  problems: HalfCounts;
  /** Ids of the requests fully right. */
  rightIds: Set<string>;
}

/** Half of a request by the hash of its id. */
export function halfOf(id: string): Half {
  return fnv1a(id) % 2 === 0 ? 'A' : 'B';
}

/** The single-call dev requests (arguments given, a ground-truth tool id): what every pass maps. */
export function singleCallRequests(data: EvalData): QueryRecord[] {
  return data.dev.filter((q) => q.arguments !== null && (q.relevant_ids?.length ?? 0) > 0);
}

/** How many requests each half holds. */
export function halfSizes(requests: readonly QueryRecord[]): HalfCounts {
  const size: HalfCounts = { A: 0, B: 0 };
  for (const q of requests) size[halfOf(q.id)]++;
  return size;
}

/**
 * Maps each request with its ground-truth tool given and counts, per half, the requests whose
 * arguments are right and the checker's problems; `skipModules` leaves value-kind modules out.
 */
export function run(data: EvalData, requests: readonly QueryRecord[], skipModules: readonly string[] = []): Run {
  const right: HalfCounts = { A: 0, B: 0 };
  const problems: HalfCounts = { A: 0, B: 0 };
  const rightIds = new Set<string>();
  for (const q of requests) {
    const gid = q.relevant_ids?.[0];
    if (!gid) continue;
    const schema = scoringSchema(q, gid, data.byId);
    const m = mapArguments({ name: gid, description: data.byId.get(gid)?.description, inputSchema: schema }, q.query, undefined, {
      now: EVAL_NOW,
      skipModules,
    });
    const wrong = argumentProblems(m.arguments, q.arguments as Record<string, unknown[]>, schema).length;
    if (wrong === 0) {
      right[halfOf(q.id)]++;
      rightIds.add(q.id);
    }
    problems[halfOf(q.id)] += wrong;
  }
  return { right, problems, rightIds };
}

/** What a change does on each half: requests it makes right (positive) and argument values it gains. */
export interface Effect {
  gainA: number;
  gainB: number;
  valuesA: number;
  valuesB: number;
}

/** The effect of what `base` has and `without` lacks: a gain is what the half loses without it. */
export function effectOf(base: Run, without: Run): Effect {
  return {
    gainA: base.right.A - without.right.A,
    gainB: base.right.B - without.right.B,
    // (argument values the checker rejects without it and accepts with it: a right value on a
    // request that fails on another argument counts here, not in the gain)
    valuesA: without.problems.A - base.problems.A,
    valuesB: without.problems.B - base.problems.B,
  };
}

/** The requests right in `base` and wrong in `without` (gains), and the reverse (losses), each with its half. */
export function changedRequests(base: Run, without: Run): { gains: string; losses: string } {
  const tagged = (ids: string[]): string => ids.map((id) => `${id} (${halfOf(id)})`).join(', ') || 'none';
  return {
    gains: tagged([...base.rightIds].filter((id) => !without.rightIds.has(id))),
    losses: tagged([...without.rightIds].filter((id) => !base.rightIds.has(id))),
  };
}

/** A gain as "count (rate)", the rate over the half's single-call requests. */
export function gainCell(gain: number, n: number): string {
  return `${gain > 0 ? '+' : ''}${gain} (${gain > 0 ? '+' : ''}${(gain / n).toFixed(3)})`;
}

/** The run's requests right on each half, as "A 452/566 = 0.799, B 493/580 = 0.850". */
export function rightLine(r: Run, size: HalfCounts): string {
  const rate = (h: Half): string => `${r.right[h]}/${size[h]} = ${(r.right[h] / size[h]).toFixed(3)}`;
  return `half A ${rate('A')}, half B ${rate('B')}`;
}
