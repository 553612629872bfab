/**
 * The half protocol of the mapper: the dev and the irrelevance requests split in two by FNV-1a of
 * their id (even → A, odd → B, as tools/search/split-eval.ts), and every figure of eval:unified
 * per half. Run from the repository root:
 *
 *   npx tsx tools/mapper/split-eval.ts [--cache FILE]         # the shipped calibration, per half
 *   npx tsx tools/mapper/split-eval.ts --fit A [--wrong]      # fit-confidence's whole procedure on A, score B
 *   npx tsx tools/mapper/split-eval.ts --fit both [--wrong]   # on A score B, and on B score A
 *
 * --cache FILE keeps the (slow) rankings and reuses them while the features stay the same (the
 * same file as fit-confidence.ts --cache). --wrong lists the executed calls of the scored half
 * that are not fully right, with why: the wrong tool, or which argument took which value.
 * The fit reads the FIT_* settings of fit-procedure.ts, so a procedure can be compared with
 * another by environment alone. The whole corpus is eval:unified's setting; the small snapshots
 * (each request's own candidates) are the calibration's other setting.
 */
import { mapArguments } from '@toolsurface/analysis';
import { argumentProblems, scoreArguments } from '@toolsurface/eval-kit';
import { CALIBRATION, CLOSE_TOOL_CONFIDENCE, conservative } from '@toolsurface/mapper/internal';
import { EVAL_NOW, type LabeledQuery } from './eval-lib.js';
import { loadEvalData, type EvalData } from './data.js';
import { decideAt, fitAll, fitRerankers, rankings, score, type Cuts, type Models } from './fit-procedure.js';
import { halfOf, type Half } from './halves-lib.js';

/** Figures of one half in one setting, as eval:unified reports them. */
interface Figures {
  dev: number;
  top1: number;
  single: number;
  singleRight: number;
  givenToolRight: number;
  executed: number;
  executedRight: number;
  irrelevant: number;
  irrelevantExecuted: number;
  /** irrelevance requests told that no bound tool seems to serve them (CLOSE_TOOL_CONFIDENCE) */
  irrelevantNoneClose: number;
  /** dev requests whose first tool is right, told so all the same */
  rightNoneClose: number;
}

/** An executed call that is not fully right, with why. */
interface Wrong {
  id: string;
  request: string;
  why: string;
}

/** Why an executed call is wrong: another tool than the request's, or the arguments at fault. */
function whyWrong(lq: LabeledQuery, tool: string, args: Record<string, unknown>, data: EvalData): string {
  if (lq.irrelevant) return `irrelevant request ran ${data.byId.get(tool)?.name ?? tool} ${JSON.stringify(args)}`;
  const name = data.byId.get(tool)?.name ?? tool;
  if (!lq.q.relevant.includes(name)) return `wrong tool ${name}, want ${lq.q.relevant.join(' or ')}`;
  const schema = lq.q.schema_override?.[tool] ?? data.byId.get(tool)?.parameters;
  const calls = (lq.q.calls ?? []).filter((c) => c.name === name);
  if (calls.length === 0) return `${name}: no ground-truth arguments to check (LiveMCPBench)`;
  const problems = calls.map((c) => argumentProblems(args, c.arguments as Record<string, unknown[]>, schema));
  return `${name}: ${problems.reduce((a, b) => (b.length < a.length ? b : a)).join('; ')}`;
}

/** Scores the queries of one setting with models and cuts; returns the figures and the wrong executed calls. */
function figuresOf(
  queries: LabeledQuery[],
  m: Models,
  toolCut: number,
  cuts: Cuts,
  small: boolean,
  givenTool: Map<string, boolean>,
  data: EvalData,
): { f: Figures; wrong: Wrong[] } {
  const f: Figures = {
    dev: 0,
    top1: 0,
    single: 0,
    singleRight: 0,
    givenToolRight: 0,
    executed: 0,
    executedRight: 0,
    irrelevant: 0,
    irrelevantExecuted: 0,
    irrelevantNoneClose: 0,
    rightNoneClose: 0,
  };
  const wrong: Wrong[] = [];
  for (const lq of queries) {
    const sc = score(lq, m, small);
    const d = decideAt(sc, toolCut, cuts);
    // (the eval data names no preferred tool, so closeness is the calibrated P(tool right) alone)
    const noneClose = sc.head.every((h) => conservative(h.rawTool, toolCut) < CLOSE_TOOL_CONFIDENCE);
    const chosen = lq.ranked.find((r) => r.c.name === d.chosen?.name);
    if (d.executes && !(chosen?.argsRight ?? false) && chosen)
      wrong.push({ id: lq.q.id, request: lq.q.query, why: whyWrong(lq, chosen.c.name, chosen.c.mapping.arguments, data) });
    if (lq.irrelevant) {
      f.irrelevant++;
      if (d.executes) f.irrelevantExecuted++;
      if (noneClose) f.irrelevantNoneClose++;
      continue;
    }
    f.dev++;
    if (d.chosen?.toolRight) f.top1++;
    if (d.chosen?.toolRight && noneClose) f.rightNoneClose++;
    if (lq.q.arguments != null) {
      f.single++;
      if (d.chosen?.argsRight) f.singleRight++;
      if (givenTool.get(lq.q.id)) f.givenToolRight++;
    }
    if (d.executes) {
      f.executed++;
      if (d.chosen?.argsRight) f.executedRight++;
    }
  }
  return { f, wrong };
}

/** Argument accuracy with the ground-truth tool given (mapping alone, no calibration): right or not, by single-call request id. */
function givenToolAccuracy(data: EvalData): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const q of data.dev) {
    if (q.arguments == null) continue;
    const gid = q.relevant_ids?.[0];
    if (!gid) {
      out.set(q.id, false);
      continue;
    }
    const schema = q.schema_override?.[gid] ?? data.byId.get(gid)?.parameters;
    const m = mapArguments({ name: gid, description: data.byId.get(gid)?.description, inputSchema: schema }, q.query, undefined, {
      now: EVAL_NOW,
    });
    out.set(q.id, scoreArguments(m.arguments, q.arguments as Record<string, unknown[]>, schema));
  }
  return out;
}

/** Levels of calibrated P(tool right) the closeness curve (--close-curve) is printed at. */
const CLOSE_LEVELS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5];

/**
 * Per half and setting, at each level of CLOSE_LEVELS: the share of irrelevance requests whose
 * listed candidates all stay under it (told no tool is close: wanted), and the share of dev requests
 * whose first tool is right told so all the same (the advice is then wrong).
 */
function closeCurve(label: string, h: Half, setting: string, queries: LabeledQuery[], m: Models, toolCut: number, small: boolean): string {
  const best = queries.map((lq) => {
    const sc = score(lq, m, small);
    const top = Math.max(0, ...sc.head.map((x) => conservative(x.rawTool, toolCut)));
    return { irrelevant: lq.irrelevant, right: sc.head[0]?.s.toolRight ?? false, top };
  });
  const irr = best.filter((b) => b.irrelevant);
  const right = best.filter((b) => b.right);
  const cells = CLOSE_LEVELS.map(
    (l) =>
      `${(irr.filter((b) => b.top < l).length / Math.max(1, irr.length)).toFixed(2)} / ${(right.filter((b) => b.top < l).length / Math.max(1, right.length)).toFixed(3)}`,
  );
  return `| ${label} | ${h} | ${setting} | ${cells.join(' | ')} |`;
}

/** One table row. */
function row(label: string, half: string, setting: string, f: Figures): string {
  const r = (a: number, b: number): string => (b === 0 ? 'n/a' : (a / b).toFixed(3));
  return `| ${label} | ${half} | ${setting} | ${f.dev} / ${f.irrelevant} | ${r(f.top1, f.dev)} | ${r(f.singleRight, f.single)} | ${r(f.givenToolRight, f.single)} | ${r(f.executed, f.dev)} | ${r(f.executedRight, f.executed)} (${f.executedRight} of ${f.executed}) | ${r(f.irrelevantExecuted, f.irrelevant)} (${f.irrelevantExecuted}) | ${r(f.irrelevantNoneClose, f.irrelevant)} | ${r(f.rightNoneClose, f.top1)} |`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let cache: string | undefined;
  let fit: 'A' | 'B' | 'both' | undefined;
  let listWrong = false;
  let curve = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--cache') cache = argv[++i];
    else if (a === '--fit') {
      const v = argv[++i];
      if (v !== 'A' && v !== 'B' && v !== 'both') throw new Error(`--fit takes A, B or both (got ${v})`);
      fit = v;
    } else if (a === '--wrong') listWrong = true;
    else if (a === '--close-curve') curve = true;
    else throw new Error(`unknown argument ${a} (flags: --cache FILE, --fit A|B|both, --wrong, --close-curve)`);
  }
  const { whole, small } = await rankings(cache);
  const data = loadEvalData();
  const givenTool = givenToolAccuracy(data);
  const of = (list: LabeledQuery[], h: Half): LabeledQuery[] => list.filter((q) => halfOf(q.q.id) === h);
  // word-for-word twins across the halves: a fit on one half has seen the other's copy
  const textOf = (q: LabeledQuery): string => q.q.query.toLowerCase().replace(/\s+/g, ' ').trim();
  const textsA = new Set(of(whole, 'A').map(textOf));
  const twins = of(whole, 'B').filter((q) => textsA.has(textOf(q))).length;
  console.log(
    `halves by FNV-1a of the request id: A ${of(whole, 'A').length}, B ${of(whole, 'B').length} requests (dev + irrelevance); ${twins} of B's have a word-for-word twin in A`,
  );
  console.log(
    '\n| calibration | half | setting | dev / irrelevant | top-1 | args single-call | args, right tool given | executed | executed fully right | irrelevant executed | irrelevant told no tool is close | right first tool told so |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const wrongs: { label: string; list: Wrong[] }[] = [];
  const curves: string[] = [];
  const report = (label: string, h: Half, m: Models, toolCut: number, cuts: Cuts, showWrong: boolean): void => {
    for (const [setting, list, isSmall] of [
      ['whole corpus', whole, false],
      ['small snapshots', small, true],
    ] as const) {
      const { f, wrong } = figuresOf(of(list, h), m, toolCut, cuts, isSmall, givenTool, data);
      console.log(row(label, h, setting, f));
      if (curve) curves.push(closeCurve(label, h, setting, of(list, h), m, toolCut, isSmall));
      if (showWrong && wrong.length > 0) wrongs.push({ label: `${label}, half ${h}, ${setting}`, list: wrong });
    }
  };
  if (fit === undefined) {
    const cuts = { small: CALIBRATION.fullCutSmall, large: CALIBRATION.fullCutLarge };
    for (const h of ['A', 'B'] as const) report('shipped (fitted on all)', h, CALIBRATION, CALIBRATION.toolCut, cuts, listWrong);
  } else {
    const fitOn: Half[] = fit === 'both' ? ['A', 'B'] : [fit];
    const rerankers = await fitRerankers(fitOn.map((h) => [...of(whole, h), ...of(small, h)]));
    fitOn.forEach((h, i) => {
      const other: Half = h === 'A' ? 'B' : 'A';
      const m = fitAll(of(whole, h), of(small, h), rerankers[i]);
      const cuts = { small: m.fullCutSmall, large: m.fullCutLarge };
      console.error(`[split] fit on ${h}: cuts small ${m.fullCutSmall.toFixed(4)}, large ${m.fullCutLarge.toFixed(4)}`);
      report(`fit on ${h} (seen)`, h, m, m.toolCut, cuts, false);
      report(`fit on ${h} (unseen)`, other, m, m.toolCut, cuts, listWrong);
    });
  }
  if (curve) {
    console.log(
      `\nno candidate close (all listed under the level of calibrated P(tool right)): share of irrelevance requests / of dev requests whose first tool is right\n| calibration | half | setting | ${CLOSE_LEVELS.join(' | ')} |\n|---|---|---|${CLOSE_LEVELS.map(() => '---|').join('')}\n${curves.join('\n')}`,
    );
  }
  for (const w of wrongs) {
    console.log(`\nexecuted but not fully right, ${w.label}:`);
    for (const x of w.list) console.log(`- ${x.id} ${JSON.stringify(x.request.slice(0, 160))}\n    ${x.why}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
