// The examples the argument rules' own comments quote (fixtures/examples.json), each run through
// mapArguments with a tool the comment's words fit: a comment that stops saying what the mapper
// does fails here. Where the mapper disagrees with its comment today the case is marked
// known_wrong and pinned to what it gives, so a fix fails the test until the flag is dropped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapArguments } from '../arguments.js';
import type { MapperTool } from '../types.js';
import { now } from './test-tool.js';

/** One example: a comment's quoted request, a tool it fits and the values the comment gives (null: no value). */
interface CommentExample {
  id: string;
  /** Repository path and line of the comment. */
  source: string;
  /** The comment's words, on one line. */
  quote: string;
  request: string;
  tool: { name?: string; description?: string; properties: Record<string, unknown>; required?: string[] };
  expected: Record<string, unknown>;
  /** The mapper gives `actual`, not `expected`, today. */
  known_wrong?: boolean;
  actual?: Record<string, unknown>;
  note?: string;
}

const examples = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'examples.json'), 'utf8')) as CommentExample[];
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');
const right = examples.filter((e) => !e.known_wrong).map((e) => [e.id, e] as const);
const wrong = examples.filter((e) => e.known_wrong).map((e) => [e.id, e] as const);

/** The values mapArguments gives the example's expected parameters (null where it gives none). */
function values(e: CommentExample): Record<string, unknown> {
  const tool: MapperTool = {
    name: e.tool.name ?? 't',
    description: e.tool.description ?? '',
    inputSchema: { type: 'object', properties: e.tool.properties, required: e.tool.required ?? [] },
  };
  const args = mapArguments(tool, e.request, undefined, { now }).arguments;
  return Object.fromEntries(Object.keys(e.expected).map((k) => [k, args[k] ?? null]));
}

/** A comment's text on one line, without its comment markers. */
const oneLine = (s: string): string => s.replace(/\n\s*(?:\/\/|\*)\s?/g, ' ').replace(/\s+/g, ' ');

describe('mapArguments: the examples its comments quote', () => {
  it.each(right)('%s', (_id, e) => {
    expect(values(e)).toEqual(e.expected);
  });

  it.each(wrong)('%s (known wrong: pinned to what it gives today)', (_id, e) => {
    const got = values(e);
    expect(got).toEqual(e.actual);
    expect(got).not.toEqual(e.expected);
  });

  // The file must still quote the example; the line is only a hint, so that editing a rule file
  // above a comment does not fail this test.
  it('names, for each example, the comment it comes from', () => {
    expect(new Set(examples.map((e) => e.id)).size).toBe(examples.length);
    for (const e of examples) {
      const [path] = e.source.split(':');
      expect(oneLine(readFileSync(join(repoRoot, path), 'utf8')), e.id).toContain(e.quote);
    }
  });
});
