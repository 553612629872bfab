// Test data of the semantic stage's adversarial tests: the shipped table taken apart and rebuilt
// with one part changed, and the ranking invariants every search keeps.
import { readFileSync } from 'node:fs';
import { DEFAULT_SEMANTIC_DATA } from './semantic.js';
import type { SearchHit } from './types.js';

export const SHIPPED = readFileSync(DEFAULT_SEMANTIC_DATA);
const H = SHIPPED.readUInt32LE(0);
export const HEADER = JSON.parse(
  SHIPPED.subarray(4, 4 + H)
    .toString('utf8')
    .replace(/\0+$/, ''),
) as { format: string; version: number; dim: number; pieces: [string, number][] };
export const SCALES_AT = 4 + H;
export const BODY = SHIPPED.subarray(4 + H);

/** A data file with `header` (any JSON) in place of the shipped one, same scales and values. */
export function withHeader(header: unknown, body: Uint8Array = BODY): Buffer {
  const raw = Buffer.from(JSON.stringify(header));
  const padded = Buffer.alloc(Math.ceil((4 + raw.length) / 4) * 4 - 4);
  raw.copy(padded);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(padded.length, 0);
  return Buffer.concat([head, padded, body]);
}

/** The shipped file with the float32 scale of piece `i` replaced. */
export function withScale(i: number, scale: number): Buffer {
  const b = Buffer.from(SHIPPED);
  b.writeFloatLE(scale, SCALES_AT + 4 * i);
  return b;
}

export function invariantErrors(hits: SearchHit[], limit: number): string[] {
  const errs: string[] = [];
  if (hits.length > limit) errs.push(`${hits.length} hits > limit ${limit}`);
  if (new Set(hits.map((h) => h.name)).size !== hits.length) errs.push('repeated name');
  hits.forEach((h, i) => {
    if (!Number.isFinite(h.score) || h.score < 0) errs.push(`bad score ${h.score}`);
    if (i > 0 && h.score > hits[i - 1].score) errs.push(`score rises at ${i}: ${hits[i - 1].score} then ${h.score}`);
  });
  return errs;
}

export const CONTROL: [string, number][] = [
  ['<unk>', 0],
  ['<s>', 0],
  ['</s>', 0],
  ['x1', 0],
  ['x2', 0],
  ['x3', 0],
];
