/**
 * Small numeric fitting helpers for fit-confidence.ts and tools/search/fit-head-rerank.ts: a listwise softmax
 * reranker (linear, or with one hidden layer; Adam) and an L2-regularised logistic regression
 * (Newton / IRLS), plus the conservative cutoff.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HiddenLayer } from '@toolsurface/search';

/** One ranking example: candidate feature vectors and their target weights (0 = wrong). */
export interface ListExample {
  feats: number[][];
  target: number[];
}

/** Fits reranker weights by minimising the listwise softmax cross-entropy (+ L2). */
export function fitListwise(
  examples: ListExample[],
  dim: number,
  opts: { l2?: number; iters?: number; lr?: number; init?: number[] } = {},
): number[] {
  const l2 = opts.l2 ?? 1e-3;
  const iters = opts.iters ?? 600;
  const lr = opts.lr ?? 0.05;
  const w = opts.init ? [...opts.init] : new Array<number>(dim).fill(0);
  const m = new Array<number>(dim).fill(0);
  const v = new Array<number>(dim).fill(0);
  const usable = examples.filter((e) => e.target.some((t) => t > 0) && e.feats.length > 1);
  for (let it = 1; it <= iters; it++) {
    const g = new Array<number>(dim).fill(0);
    for (const e of usable) {
      const s = e.feats.map((f) => f.reduce((a, x, i) => a + x * w[i], 0));
      const mx = Math.max(...s);
      const ex = s.map((x) => Math.exp(x - mx));
      const z = ex.reduce((a, b) => a + b, 0);
      const p = ex.map((x) => x / z);
      const tw = e.target.map((t, i) => t * p[i]);
      const tz = tw.reduce((a, b) => a + b, 0);
      const q = tw.map((x) => x / tz);
      for (let i = 0; i < e.feats.length; i++) {
        const d = p[i] - q[i];
        if (d === 0) continue;
        const f = e.feats[i];
        for (let k = 0; k < dim; k++) g[k] += d * f[k];
      }
    }
    for (let k = 0; k < dim; k++) {
      const gk = g[k] / usable.length + l2 * w[k];
      m[k] = 0.9 * m[k] + 0.1 * gk;
      v[k] = 0.999 * v[k] + 0.001 * gk * gk;
      const mh = m[k] / (1 - 0.9 ** it);
      const vh = v[k] / (1 - 0.999 ** it);
      w[k] -= (lr * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return w;
}

/**
 * A listwise model with one hidden layer (the learned rankers' form, src/listwise.ts
 * `listwiseScorer`): score(x) = weights·x + Σ_k output[k] × tanh(bias[k] + Σ_f z_f × input[f × units + k]),
 * z_f = (x_f − mean[f]) / scale[f]. The linear part reads the raw features, the hidden layer
 * their standardised values (mean and deviation over the training candidates).
 */
export interface ListwiseMlp {
  weights: number[];
  hidden: HiddenLayer;
}

/** A seeded uniform generator in [0, 1) (mulberry32), so that a fit can be repeated exactly. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options of fitListwiseMlp: hidden units, L2 of the linear and hidden weights, Adam steps and rate, random seed. */
export interface MlpOptions {
  units?: number;
  l2?: number;
  l2Hidden?: number;
  iters?: number;
  lr?: number;
  seed?: number;
}

/**
 * Fits a ListwiseMlp by minimising the listwise softmax cross-entropy (full batch, Adam), with
 * L2 `l2` on the linear weights and `l2Hidden` on the hidden layer's weights. Deterministic for a
 * given `seed` (the hidden weights start as normal draws of deviation 0.1; the rest at 0).
 */
export function fitListwiseMlp(examples: ListExample[], dim: number, opts: MlpOptions = {}): ListwiseMlp {
  const units = opts.units ?? 16;
  const l2 = opts.l2 ?? 1e-4;
  const l2h = opts.l2Hidden ?? 1e-2;
  const iters = opts.iters ?? 800;
  const lr = opts.lr ?? 0.02;
  const rand = seededRandom(opts.seed ?? 1);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const usable = examples.filter((e) => e.target.some((t) => t > 0) && e.feats.length > 1);
  // standardisation over every candidate of the usable lists
  const mean = new Array<number>(dim).fill(0);
  const scale = new Array<number>(dim).fill(0);
  let count = 0;
  for (const e of usable)
    for (const f of e.feats) {
      count++;
      for (let k = 0; k < dim; k++) mean[k] += f[k];
    }
  for (let k = 0; k < dim; k++) mean[k] /= Math.max(1, count);
  for (const e of usable) for (const f of e.feats) for (let k = 0; k < dim; k++) scale[k] += (f[k] - mean[k]) ** 2;
  // (a feature constant in training reads as 0 there: deviation 1, so an unseen value cannot blow up)
  for (let k = 0; k < dim; k++) {
    const sd = Math.sqrt(scale[k] / Math.max(1, count));
    scale[k] = sd > 1e-9 ? sd : 1;
  }
  // every candidate in flat arrays: raw features X and standardised Z (C × dim), lists by offset
  const C = usable.reduce((a, e) => a + e.feats.length, 0);
  const X = new Float64Array(C * dim);
  const Z = new Float64Array(C * dim);
  const T = new Float64Array(C);
  const start = new Int32Array(usable.length + 1);
  let c = 0;
  usable.forEach((e, n) => {
    start[n] = c;
    e.feats.forEach((f, i) => {
      for (let k = 0; k < dim; k++) {
        X[c * dim + k] = f[k];
        Z[c * dim + k] = (f[k] - mean[k]) / scale[k];
      }
      T[c++] = e.target[i];
    });
  });
  start[usable.length] = C;
  // parameters in one vector: linear weights, input (dim × units), bias, output
  const nW = dim,
    nU = dim * units,
    nB = units,
    nA = units;
  const P = new Float64Array(nW + nU + nB + nA);
  for (let i = nW; i < nW + nU; i++) P[i] = 0.1 * normal();
  for (let i = nW + nU + nB; i < P.length; i++) P[i] = 0.1 * normal();
  const m1 = new Float64Array(P.length);
  const m2 = new Float64Array(P.length);
  const G = new Float64Array(P.length);
  const oU = nW,
    oB = nW + nU,
    oA = nW + nU + nB;
  const H = new Float64Array(C * units);
  const S = new Float64Array(C);
  const D = new Float64Array(C);
  const dH = new Float64Array(units);
  for (let it = 1; it <= iters; it++) {
    // forward: hidden activations and scores of every candidate
    for (let c = 0; c < C; c++) {
      const h = c * units,
        x = c * dim;
      for (let k = 0; k < units; k++) H[h + k] = P[oB + k];
      let v = 0;
      for (let f = 0; f < dim; f++) {
        v += P[f] * X[x + f];
        const z = Z[x + f];
        if (z === 0) continue;
        const row = oU + f * units;
        for (let k = 0; k < units; k++) H[h + k] += z * P[row + k];
      }
      for (let k = 0; k < units; k++) {
        H[h + k] = Math.tanh(H[h + k]);
        v += P[oA + k] * H[h + k];
      }
      S[c] = v;
    }
    // softmax of each list against its target distribution: D = (p − q) / lists
    for (let n = 0; n < usable.length; n++) {
      let mx = -Infinity;
      for (let c = start[n]; c < start[n + 1]; c++) mx = Math.max(mx, S[c]);
      let z = 0,
        tz = 0;
      for (let c = start[n]; c < start[n + 1]; c++) {
        D[c] = Math.exp(S[c] - mx);
        z += D[c];
      }
      for (let c = start[n]; c < start[n + 1]; c++) {
        D[c] /= z;
        tz += T[c] * D[c];
      }
      for (let c = start[n]; c < start[n + 1]; c++) D[c] = (D[c] - (T[c] * D[c]) / tz) / usable.length;
    }
    // backward
    G.fill(0);
    for (let c = 0; c < C; c++) {
      const d = D[c];
      if (d === 0) continue;
      const h = c * units,
        x = c * dim;
      for (let f = 0; f < dim; f++) G[f] += d * X[x + f];
      for (let k = 0; k < units; k++) {
        const hk = H[h + k];
        G[oA + k] += d * hk;
        dH[k] = d * P[oA + k] * (1 - hk * hk);
        G[oB + k] += dH[k];
      }
      for (let f = 0; f < dim; f++) {
        const z = Z[x + f];
        if (z === 0) continue;
        const row = oU + f * units;
        for (let k = 0; k < units; k++) G[row + k] += z * dH[k];
      }
    }
    for (let i = 0; i < P.length; i++) {
      const g = G[i] + (i < nW ? l2 : i >= oB && i < oA ? 0 : l2h) * P[i];
      m1[i] = 0.9 * m1[i] + 0.1 * g;
      m2[i] = 0.999 * m2[i] + 0.001 * g * g;
      P[i] -= (lr * (m1[i] / (1 - 0.9 ** it))) / (Math.sqrt(m2[i] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return {
    weights: [...P.subarray(0, nW)],
    hidden: { units, mean, scale, input: [...P.subarray(oU, oB)], bias: [...P.subarray(oB, oA)], output: [...P.subarray(oA)] },
  };
}

/**
 * Fits one ListwiseMlp per `jobs` entry, each on `examples[job.subset]` (indices), in child
 * processes (fit-mlp-worker.ts, one per core): full-batch steps over tens of thousands of
 * candidates take about 0.1 s each in JavaScript, and a cross-validated fit needs a few dozen
 * models. Results come back in the order of `jobs`.
 */
export async function fitListwiseMlpParallel(
  examples: ListExample[],
  dim: number,
  jobs: { subset: number[]; opts: MlpOptions }[],
): Promise<ListwiseMlp[]> {
  if (jobs.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'fit-mlp-'));
  const children: ReturnType<typeof fork>[] = [];
  let failed = false;
  try {
    // each worker reads every example once; a job names its subset by index
    const file = join(dir, 'examples.json');
    writeFileSync(file, JSON.stringify({ examples, dim }));
    const results: (ListwiseMlp | undefined)[] = new Array(jobs.length).fill(undefined);
    const workers = Math.max(1, Math.min(jobs.length, availableParallelism()));
    let next = 0;
    const worker = fileURLToPath(new URL('./fit-mlp-worker.ts', import.meta.url));
    await Promise.all(
      Array.from(
        { length: workers },
        () =>
          new Promise<void>((done, fail) => {
            // (fork passes this process's execArgv on, so the tsx loader reads the worker's TypeScript)
            const child = fork(worker, [file]);
            children.push(child);
            const stop = (err: Error): void => {
              // the first failure stops every worker: a fit left running would hold a core for minutes
              if (!failed) {
                failed = true;
                for (const c of children) c.kill();
              }
              fail(err);
            };
            const give = (): void => {
              if (failed || next >= jobs.length) {
                child.send('exit');
                return;
              }
              const id = next++;
              child.send({ id, opts: { ...jobs[id].opts, subset: jobs[id].subset } });
            };
            child.on('message', (msg: 'ready' | { id: number; model: ListwiseMlp }) => {
              if (msg !== 'ready') results[msg.id] = msg.model;
              give();
            });
            child.on('error', stop);
            child.on('exit', (code, signal) => (code === 0 ? done() : stop(new Error(`fit worker exited with ${code ?? signal}`))));
          }),
      ),
    );
    const missing = results.findIndex((m) => m === undefined);
    if (missing >= 0) throw new Error(`fit job ${missing} returned no model`);
    return results as ListwiseMlp[];
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The average of models fitted on the same examples (so with the same standardisation) as one
 * model: linear weights averaged, hidden units side by side with their outputs divided by the
 * count. Averaging a few seeds steadies a fit whose seeds differ by ±0.002 NDCG@10.
 */
export function averageMlps(models: readonly ListwiseMlp[]): ListwiseMlp {
  const n = models.length;
  if (n === 0) throw new Error('averageMlps needs at least one model');
  const first = models[0].hidden;
  const dim = first.mean.length;
  const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  if (models.some((m) => m.weights.length !== dim || !same(m.hidden.mean, first.mean) || !same(m.hidden.scale, first.scale))) {
    throw new Error('averageMlps needs models fitted on the same examples (one standardisation)');
  }
  const units = models.reduce((a, m) => a + m.hidden.units, 0);
  const input = new Array<number>(dim * units).fill(0);
  let k0 = 0;
  for (const m of models) {
    for (let f = 0; f < dim; f++)
      for (let k = 0; k < m.hidden.units; k++) input[f * units + k0 + k] = m.hidden.input[f * m.hidden.units + k];
    k0 += m.hidden.units;
  }
  return {
    weights: first.mean.map((_, f) => models.reduce((a, m) => a + m.weights[f], 0) / n),
    hidden: {
      units,
      mean: [...first.mean],
      scale: [...first.scale],
      input,
      bias: models.flatMap((m) => [...m.hidden.bias]),
      output: models.flatMap((m) => m.hidden.output.map((x) => x / n)),
    },
  };
}

/** A hidden layer as a TypeScript object literal for a generated weights file (a field of a top-level object; 7 significant digits). */
export function hiddenLayerSource(h: HiddenLayer): string {
  const list = (xs: readonly number[]): string => JSON.stringify(xs.map((x) => Number(x.toPrecision(7))));
  return `{\n    units: ${h.units},\n    mean: ${list(h.mean)},\n    scale: ${list(h.scale)},\n    input: ${list(h.input)},\n    bias: ${list(h.bias)},\n    output: ${list(h.output)},\n  }`;
}

/** Solves A x = b (Gaussian elimination with partial pivoting). */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[piv][c])) piv = r;
    [M[c], M[piv]] = [M[piv], M[c]];
    const d = M[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / d;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / (row[i] || 1e-12));
}

/** Fits an L2-regularised logistic regression by Newton's method; the bias (index 0) is not penalised. */
export function fitLogistic(X: number[][], y: number[], opts: { l2?: number; iters?: number } = {}): number[] {
  const l2 = opts.l2 ?? 1;
  const dim = X[0]?.length ?? 0;
  let w = new Array<number>(dim).fill(0);
  for (let it = 0; it < (opts.iters ?? 30); it++) {
    const g = new Array<number>(dim).fill(0);
    const H = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
    for (let n = 0; n < X.length; n++) {
      const x = X[n];
      const z = x.reduce((a, xi, i) => a + xi * w[i], 0);
      const p = 1 / (1 + Math.exp(-z));
      const r = p - y[n];
      const s = p * (1 - p);
      for (let i = 0; i < dim; i++) {
        g[i] += r * x[i];
        for (let j = 0; j < dim; j++) H[i][j] += s * x[i] * x[j];
      }
    }
    for (let i = 1; i < dim; i++) {
      g[i] += l2 * w[i];
      H[i][i] += l2;
    }
    H[0][0] += 1e-6;
    const step = solve(H, g);
    w = w.map((wi, i) => wi - step[i]);
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  return w;
}

/** Logistic of a dot product. */
export function predict(w: number[], x: number[]): number {
  return 1 / (1 + Math.exp(-x.reduce((a, xi, i) => a + xi * w[i], 0)));
}

/**
 * Smallest raw probability t such that, among items scoring >= t, the Wilson lower bound of the
 * share of positives is at least `precision` (scanning from the top; needs `minCount` items above).
 */
export function precisionCutoff(scored: { p: number; y: number }[], precision: number, minCount = 20, z = 1.28): number {
  const s = [...scored].sort((a, b) => b.p - a.p);
  let pos = 0;
  let best = 1;
  for (let i = 0; i < s.length; i++) {
    pos += s[i].y;
    const n = i + 1;
    // only cut between distinct scores
    if (i + 1 < s.length && s[i + 1].p === s[i].p) continue;
    if (n >= minCount && wilsonLower(pos, n, z) >= precision) best = s[i].p;
  }
  return best;
}

/** Wilson score lower bound of a proportion (z = 1.28: one-sided 90%). */
export function wilsonLower(pos: number, n: number, z = 1.28): number {
  if (n === 0) return 0;
  const p = pos / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const r = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return (c - r) / d;
}
