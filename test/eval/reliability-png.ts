import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

/** One confidence bin of a reliability diagram. */
export interface Bin {
  lo: number;
  hi: number;
  n: number;
  /** Share of requests in the bin whose tool and arguments were right. */
  accuracy: number;
  meanConfidence: number;
}

/** Bins (confidence, correct) pairs into `k` equal-width bins over [0, 1]. */
export function bins(points: Array<{ confidence: number; correct: boolean }>, k = 10): Bin[] {
  const out: Bin[] = Array.from({ length: k }, (_, i) => ({ lo: i / k, hi: (i + 1) / k, n: 0, accuracy: 0, meanConfidence: 0 }));
  for (const p of points) {
    const b = out[Math.min(k - 1, Math.max(0, Math.floor(p.confidence * k)))];
    b.n++;
    b.accuracy += p.correct ? 1 : 0;
    b.meanConfidence += p.confidence;
  }
  for (const b of out) {
    if (b.n > 0) {
      b.accuracy /= b.n;
      b.meanConfidence /= b.n;
    }
  }
  return out;
}

/**
 * Draws a reliability diagram as a PNG: x = confidence, y = share fully right; one bar per bin
 * (blue; its width grows with the bin's count), the diagonal of perfect calibration (grey), and
 * the 0.7 threshold (red). No text: the eval prints the numbers beside it.
 */
export function writeReliabilityPng(path: string, data: Bin[], threshold = 0.7): void {
  const size = 480;
  const pad = 40;
  const plot = size - 2 * pad;
  const png = new PNG({ width: size, height: size });
  const set = (x: number, y: number, [r, g, b]: [number, number, number]) => {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    const i = (size * Math.round(y) + Math.round(x)) << 2;
    png.data[i] = r;
    png.data[i + 1] = g;
    png.data[i + 2] = b;
    png.data[i + 3] = 255;
  };
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) set(x, y, [255, 255, 255]);
  const X = (c: number) => pad + c * plot;
  const Y = (a: number) => size - pad - a * plot;
  const maxN = Math.max(1, ...data.map((b) => b.n));
  for (const b of data) {
    if (b.n === 0) continue;
    const w = (b.hi - b.lo) * plot * (0.3 + 0.65 * Math.sqrt(b.n / maxN));
    const cx = X((b.lo + b.hi) / 2);
    for (let x = cx - w / 2; x <= cx + w / 2; x++) for (let y = Y(b.accuracy); y <= Y(0); y++) set(x, y, [70, 110, 200]);
  }
  for (let t = 0; t <= plot; t++) {
    set(pad + t, size - pad - t, [150, 150, 150]);
    set(pad + t, size - pad, [0, 0, 0]);
    set(pad, size - pad - t, [0, 0, 0]);
    if (t % 6 < 4) set(X(threshold), size - pad - t, [210, 40, 40]);
  }
  for (let i = 0; i <= 10; i++)
    for (let d = 0; d < 6; d++) {
      set(X(i / 10), size - pad + d, [0, 0, 0]);
      set(pad - d, Y(i / 10), [0, 0, 0]);
    }
  writeFileSync(path, PNG.sync.write(png));
}
