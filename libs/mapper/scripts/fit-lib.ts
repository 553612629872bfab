/**
 * Small numeric fitting helpers for fit-confidence.ts: a listwise softmax reranker (Adam) and
 * an L2-regularised logistic regression (Newton / IRLS), plus the conservative cutoff.
 */

/** One ranking example: candidate feature vectors and their target weights (0 = wrong). */
export interface ListExample { feats: number[][]; target: number[] }

/** Fits reranker weights by minimising the listwise softmax cross-entropy (+ L2). */
export function fitListwise(examples: ListExample[], dim: number, opts: { l2?: number; iters?: number; lr?: number; init?: number[] } = {}): number[] {
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
