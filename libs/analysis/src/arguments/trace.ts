/**
 * The trace of a mapping (MapArgumentsOptions.trace): per argument, the module that proposed the
 * value it took, why (the candidate's kind and the request text it read), and the best other value
 * offered for it, so that a wrong value can be traced to one module.
 */
import { type Doc } from '../extract.js';
import { type ArgChoice, type ArgEvidence, type ArgTrace, type Cand } from './types.js';

/** Longest request text a trace quotes for one value. */
const MAX_QUOTED = 60;

/** Names the producer of candidates that no value-kind module proposed (mapObject's own steps), when tracing. */
export function tagged(cands: Cand[], name: string, tracing: boolean): Cand[] {
  if (tracing) for (const c of cands) c.module ??= name;
  return cands;
}

/** A candidate as a trace reports it. */
function choiceOf(c: Cand, doc: Doc): ArgChoice {
  const text = c.ranges.map(([a, b]) => doc.text.slice(a, b)).join(' … ');
  const quoted = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
  return { value: c.value, module: c.module ?? c.kind, why: quoted ? `${c.kind} "${quoted}"` : c.kind, score: c.score };
}

/**
 * The trace of one object level: an argument a candidate filled names that candidate's module and
 * the best candidate of another value for the same parameter (`cands` sorted best first); one a
 * step of mapObject filled (context, pair, slot, positional, defaults) names the step; a nested
 * object's arguments come from its own trace, under "parent.child".
 */
export function traceOf(
  args: Record<string, unknown>,
  evidence: Record<string, ArgEvidence>,
  chosen: ReadonlyMap<string, Cand>,
  cands: readonly Cand[],
  nested: ReadonlyMap<string, Record<string, ArgTrace>>,
  doc: Doc,
): Record<string, ArgTrace> {
  const out: Record<string, ArgTrace> = {};
  for (const [name, value] of Object.entries(args)) {
    const c = chosen.get(name);
    if (c) {
      const same = JSON.stringify(c.value);
      const other = cands.find((o) => o.param.name === name && o !== c && JSON.stringify(o.value) !== same);
      out[name] = { ...choiceOf(c, doc), ...(other ? { runnerUp: choiceOf(other, doc) } : {}) };
      continue;
    }
    const ev = evidence[name];
    out[name] = { value, module: ev?.kind ?? 'unknown', why: ev?.kind ?? 'unknown', score: ev?.score ?? 0 };
    for (const [child, t] of Object.entries(nested.get(name) ?? {})) out[`${name}.${child}`] = t;
  }
  return out;
}
