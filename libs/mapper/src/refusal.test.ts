// Refusals whose advice makes sense: against the tools of a real MCP server (server-everything's
// tools/list, testdata/), a request no candidate is close to is told that no bound tool seems to
// serve it, and is not asked for the arguments of an unrelated tool; a request a candidate is
// close to keeps the advice to give that tool's values.
import { describe, expect, it } from 'vitest';
import { CONFIDENCE_THRESHOLD, UNIFIED_NO_CLOSE_TOOL_PREFIX } from '@toolsurface/core';
import { SELECTION_RETRIEVAL_OPTIONS, ToolIndex } from '@toolsurface/search';
import { UnifiedMapper, type MapperTool } from './index.js';
import { CLOSE_TOOL_CONFIDENCE, noCandidateClose } from './mapper.js';
import everything from './testdata/server-everything-tools.json' with { type: 'json' };

const tools: MapperTool[] = everything.tools;
const index = ToolIndex.build(tools, SELECTION_RETRIEVAL_OPTIONS);
const mapper = new UnifiedMapper(tools, (q, limit) => index.search(q, limit));

describe('UnifiedMapper: a request no bound tool serves', () => {
  it('says no bound tool seems to serve it, rather than asking for get-sum\'s "a" and "b"', () => {
    for (const request of [
      'Book a table for two at an Italian restaurant tonight',
      'book me a table for two at an Italian restaurant tonight',
    ]) {
      const r = mapper.map({ request });
      expect(r.decision).toBe('low_confidence');
      expect(r.explanation.startsWith(UNIFIED_NO_CLOSE_TOOL_PREFIX), r.explanation).toBe(true);
      expect(r.explanation).not.toMatch(/\bgive\b|"a"|"b"/);
      // the candidates are still listed, each under the closeness level
      expect(r.candidates.length).toBeGreaterThan(0);
      for (const c of r.candidates) expect(c.confidence).toBeLessThan(CONFIDENCE_THRESHOLD);
      expect(noCandidateClose(mapper.rank({ request }))).toBe(true);
    }
  });

  it('keeps the usual advice where a candidate is close: "Add two numbers" is get-sum without its values', () => {
    const r = mapper.map({ request: 'Add two numbers' });
    expect(r.decision).toBe('low_confidence');
    expect(r.tool).toBe('get-sum');
    expect(r.missingArguments).toEqual(['a', 'b']);
    expect(r.explanation.startsWith(UNIFIED_NO_CLOSE_TOOL_PREFIX)).toBe(false);
    expect(mapper.rank({ request: 'Add two numbers' })[0].toolConfidence).toBeGreaterThanOrEqual(CLOSE_TOOL_CONFIDENCE);
  });

  it('never says so of a tool the caller named in preferred_tools', () => {
    const r = mapper.map({ request: 'Book a table for two at an Italian restaurant tonight', preferredTools: ['get-sum'] });
    expect(r.tool).toBe('get-sum');
    expect(r.explanation.startsWith(UNIFIED_NO_CLOSE_TOOL_PREFIX)).toBe(false);
  });

  it('runs a request a tool serves as before', () => {
    const r = mapper.map({ request: 'give me a tiny image' });
    expect(r.tool).toBe('get-tiny-image');
    expect(r.explanation.startsWith(UNIFIED_NO_CLOSE_TOOL_PREFIX)).toBe(false);
  });
});
