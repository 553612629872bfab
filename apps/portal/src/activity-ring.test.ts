import { describe, expect, it } from 'vitest';
import { PrincipalKind, ToolCalled } from '@toolsurface/proto';
import { ActivityStore, entryOf, type ActivityEntry } from './activity-ring';
import { activityQuery } from './activity-feed';
import { loadPortalConfig } from './config';

const call = (seq: number, outcome = 'ok'): ActivityEntry => ({
  seq,
  atMs: 1_700_000_000_000 + seq,
  tool: `tool-${seq}`,
  calledName: `tool-${seq}`,
  capability: 'everything',
  via: 'direct',
  outcome,
  reason: outcome === 'ok' ? '' : 'PERMISSION_DENIED',
  decision: outcome === 'ok' ? 'allow' : 'deny',
  rule: outcome === 'ok' ? '' : 'no-writes',
  durationMs: 1.5,
  orchestrator: 'ops',
});

describe('ActivityStore', () => {
  it("keeps each principal's last calls, newest first, up to its bound", () => {
    const s = new ActivityStore({ perPrincipal: 3, principals: 10 });
    for (let i = 1; i <= 7; i++) s.add('agent:a', call(i));
    s.add('agent:b', call(8));
    expect(s.recent('agent:a').map((e) => e.seq)).toEqual([7, 6, 5]);
    expect(s.recent('agent:b').map((e) => e.seq)).toEqual([8]);
    expect(s.recent('agent:nobody')).toEqual([]);
    expect(s.size()).toEqual({ principals: 2, calls: 4 });
  });

  it('lists only the refusals when asked', () => {
    const s = new ActivityStore({ perPrincipal: 10, principals: 10 });
    s.add('agent:a', call(1));
    s.add('agent:a', call(2, 'refused'));
    s.add('agent:a', call(3, 'error'));
    s.add('agent:a', call(4, 'refused'));
    expect(s.recent('agent:a', true).map((e) => e.seq)).toEqual([4, 2]);
  });

  it('forgets the principal whose last call is the oldest once it holds too many principals', () => {
    const s = new ActivityStore({ perPrincipal: 2, principals: 2 });
    s.add('agent:a', call(1));
    s.add('agent:b', call(2));
    s.add('agent:a', call(3));
    s.add('agent:c', call(4));
    expect(s.recent('agent:b')).toEqual([]);
    expect(s.recent('agent:a').map((e) => e.seq)).toEqual([3, 1]);
    expect(s.recent('agent:c').map((e) => e.seq)).toEqual([4]);
    // Bounded whatever arrives: many principals, many calls each.
    for (let i = 0; i < 10_000; i++) s.add(`agent:p${i % 100}`, call(i));
    expect(s.size().principals).toBe(2);
    for (let i = 0; i < 10_000; i++) s.add(`agent:q${i % 2}`, call(i));
    expect(s.size()).toEqual({ principals: 2, calls: 4 });
    expect(s.recent('agent:q1').map((e) => e.seq)).toEqual([9999, 9997]);
  });

  it('refuses bounds below 1', () => {
    expect(() => new ActivityStore({ perPrincipal: 0, principals: 1 })).toThrow('at least 1');
  });
});

describe('entryOf', () => {
  const base = ToolCalled.fromPartial({
    principal: { kind: PrincipalKind.PRINCIPAL_KIND_AGENT, id: 'researcher' },
    calledName: 'execute_tool',
    toolName: '',
    attemptedName: 'write_file',
    via: 'execute_tool',
    outcome: 'refused',
    reason: 'TOOL_NOT_FOUND',
    admission: { decision: 'deny', rule: 'no-writes-for-researcher' },
    durationMs: 2.345,
    atMs: 1_700_000_000_000,
  });

  it('names the tool a meta-tool was asked for when the call resolved to none, and keeps the rule', () => {
    expect(entryOf(base, 9)).toEqual({
      principal: 'agent:researcher',
      entry: expect.objectContaining({
        seq: 9,
        tool: 'write_file',
        calledName: 'execute_tool',
        rule: 'no-writes-for-researcher',
        durationMs: 2.3,
      }),
    });
  });

  it('skips a call refused before its principal was known, and cuts long fields', () => {
    expect(entryOf({ ...base, principal: undefined }, 1)).toBeUndefined();
    expect(entryOf({ ...base, principal: { kind: PrincipalKind.PRINCIPAL_KIND_UNSPECIFIED, id: 'x' } }, 1)).toBeUndefined();
    expect(entryOf({ ...base, reason: 'x'.repeat(10_000) }, 1)!.entry.reason).toHaveLength(128);
  });
});

describe('activity settings', () => {
  it('reads NATS_URL and the bounds, with defaults, and names a bad variable', () => {
    expect(loadPortalConfig({}).activity).toMatchObject({
      natsUrl: 'nats://127.0.0.1:4222',
      perPrincipal: 50,
      principals: 500,
      replay: 10_000,
    });
    expect(loadPortalConfig({ NATS_URL: 'nats://a:1,nats://b:2', PORTAL_ACTIVITY_PER_PRINCIPAL: '5' }).activity).toMatchObject({
      natsUrl: 'nats://a:1,nats://b:2',
      perPrincipal: 5,
    });
    expect(() => loadPortalConfig({ NATS_URL: 'http://x y' })).toThrow('NATS_URL must be');
    expect(() => loadPortalConfig({ PORTAL_ACTIVITY_PER_PRINCIPAL: '0' })).toThrow('PORTAL_ACTIVITY_PER_PRINCIPAL must be');
    expect(() => loadPortalConfig({ NATS_PASSWORD: 'p' })).toThrow('NATS_PASSWORD needs NATS_USER');
  });

  it('takes ?refusals=1 or true as the refusals filter', () => {
    expect(activityQuery('/api/principals/agent/a/activity?refusals=1')).toBe(true);
    expect(activityQuery('/api/principals/agent/a/activity?refusals=true')).toBe(true);
    expect(activityQuery('/api/principals/agent/a/activity')).toBe(false);
  });
});

describe('entryOf with values a page cannot show', () => {
  it('turns a time outside the Date range and a NaN duration into ones the page can render', () => {
    const principal = { kind: PrincipalKind.PRINCIPAL_KIND_AGENT, id: 'a' };
    for (const atMs of [8.7e15, -8.7e15, Number.NaN]) {
      const e = entryOf(ToolCalled.fromPartial({ principal, toolName: 't', atMs, durationMs: Number.NaN }), 1)!.entry;
      // The page formats atMs with Date: an invalid date throws there and blanked the whole principal page.
      expect(() => new Date(e.atMs).toISOString(), String(atMs)).not.toThrow();
      expect(e.atMs).toBe(0);
      expect(e.durationMs).toBe(0);
    }
    const ok = entryOf(ToolCalled.fromPartial({ principal, toolName: 't', atMs: 1_700_000_000_000, durationMs: 1.25 }), 2)!.entry;
    expect([ok.atMs, ok.durationMs]).toEqual([1_700_000_000_000, 1.3]);
  });
});
