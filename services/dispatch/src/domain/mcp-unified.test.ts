import { describe, expect, it } from 'vitest';
import { toCallToolResult } from './mcp';
import type { CallResult, UnifiedInfo } from './ports';

const meta: UnifiedInfo = {
  tool: 'get-sum',
  confidence: 0.91,
  argumentsJson: '{"a":17,"b":25}',
  candidates: [
    { name: 'get-sum', confidence: 0.91, argumentsJson: '{"a":17,"b":25}', missingArguments: [] },
    { name: 'echo', confidence: 0.2, argumentsJson: '', missingArguments: ['message'] },
  ],
  missingArguments: [],
  executed: true,
};
const result = (r: Partial<CallResult>): CallResult => ({
  contentJson: '[{"type":"text","text":"42"}]',
  structuredContentJson: '',
  isError: false,
  reason: '',
  message: '',
  toolName: 'get-sum',
  via: 'unified_tool',
  unified: meta,
  durationMs: 0,
  ...r,
});

describe('unified_tool in MCP structuredContent', () => {
  it('carries the chosen tool, its confidence, the mapped arguments and the candidates of a call that ran', () => {
    expect(toCallToolResult(result({ structuredContentJson: '{"sum":42}' })).structuredContent).toEqual({
      unified: {
        tool: 'get-sum',
        confidence: 0.91,
        arguments: { a: 17, b: 25 },
        candidates: [
          { name: 'get-sum', confidence: 0.91, arguments: { a: 17, b: 25 }, missingArguments: [] },
          { name: 'echo', confidence: 0.2, arguments: {}, missingArguments: ['message'] },
        ],
        missingArguments: [],
        executed: true,
      },
      result: { sum: 42 },
    });
  });

  it('carries the candidates of a refusal, beside the reason', () => {
    const r = toCallToolResult(
      result({ isError: true, reason: 'LOW_CONFIDENCE', message: 'no tool fits', unified: { ...meta, executed: false } }),
    );
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ unified: { executed: false, candidates: [{ name: 'get-sum' }, { name: 'echo' }] } });
    expect(r.structuredContent).not.toHaveProperty('result');
  });

  it('leaves a supervised proposal and any other call as they were', () => {
    const proposal = '{"proposal":{"tool":"get-sum"}}';
    expect(toCallToolResult(result({ structuredContentJson: proposal, unified: { ...meta, executed: false } })).structuredContent).toEqual({
      proposal: { tool: 'get-sum' },
    });
    expect(toCallToolResult(result({ via: 'direct', unified: undefined, structuredContentJson: '{"x":1}' })).structuredContent).toEqual({
      x: 1,
    });
  });
});
