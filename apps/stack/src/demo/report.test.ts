import { describe, expect, it } from 'vitest';
import { check, Report, StepFailure } from './report';

describe('Report', () => {
  it('prints each step with its mark, details and time, and counts what failed', async () => {
    let out = '';
    const r = new Report((s) => (out += s), false, 60);
    await r.step('a1', 'open a surface', async (s) => {
      await s.timed(async () => undefined);
      s.call('SurfaceService.OpenSurface(agent:researcher)');
      s.kv('mode', 'adaptive → discovery');
    });
    const value = await r.step('a2', 'discover', async () => {
      check(false, 'read_text_file is not among the hits');
      return 1;
    });
    await r.step('d1', 'refusal', async (s) => {
      s.note = 'refused: PERMISSION_DENIED';
    });
    await r.step('x1', 'error with a reason code', async () => {
      throw Object.assign(new Error('no connection'), { code: 'UNAVAILABLE' });
    });
    expect(value).toBeUndefined();
    expect(r.passed).toBe(2);
    expect(r.failures).toEqual([
      'a2 discover: read_text_file is not among the hits',
      'x1 error with a reason code: UNAVAILABLE: no connection',
    ]);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^ {2}✓ a1 open a surface +\d+\.\d+ ms$/);
    expect(lines[1]).toBe('       → SurfaceService.OpenSurface(agent:researcher)');
    expect(lines[2]).toBe('       mode       adaptive → discovery');
    expect(lines[3]).toMatch(/^ {2}✗ a2 discover$/);
    expect(lines[4]).toBe('       FAILED: read_text_file is not among the hits');
    expect(lines[5]).toMatch(/^ {2}✓ d1 refusal +refused: PERMISSION_DENIED$/);
    expect(lines[5]).toHaveLength(59);
    expect(new StepFailure('x').name).toBe('StepFailure');
  });
});
