import { describe, expect, it } from 'vitest';
import { principalsChanged, surfaceInputs } from './config-changes';

const admission = { default: 'allow', rules: [] };
const config = (records: Record<string, unknown>, policy: unknown = admission) => surfaceInputs(Object.entries(records), policy);

describe('principalsChanged', () => {
  const before = config({
    'presentation.agent.a': { mode: 'direct', autonomy: 'autonomous' },
    'bindings.agent.a': { capabilities: ['memory'] },
    'presentation.gateway.g': { mode: 'unified', autonomy: 'supervised' },
    'bindings.gateway.g': { capabilities: ['everything'] },
  });

  it('names nobody when nothing that shapes a surface changed', () => {
    const same = config({
      'bindings.gateway.g': { capabilities: ['everything'] },
      'bindings.agent.a': { capabilities: ['memory'] },
      'presentation.gateway.g': { mode: 'unified', autonomy: 'supervised' },
      'presentation.agent.a': { mode: 'direct', autonomy: 'autonomous' },
    });
    expect(principalsChanged(before, same)).toEqual([]);
  });

  it('names the principals whose mode, autonomy or bindings changed, and those added or dropped', () => {
    const after = config({
      'presentation.agent.a': { mode: 'discovery', autonomy: 'autonomous' },
      'bindings.agent.a': { capabilities: ['memory'] },
      'presentation.agent.new.one': { mode: 'adaptive', autonomy: 'autonomous' },
      'bindings.agent.new.one': { capabilities: [] },
    });
    expect(principalsChanged(before, after)).toEqual([
      { kind: 'agent', id: 'a' },
      { kind: 'agent', id: 'new.one' },
      { kind: 'gateway', id: 'g' },
    ]);
  });

  it('names every principal when the admission policy changed (a denial hides tools from surfaces)', () => {
    const after = config(
      Object.fromEntries([
        ['presentation.agent.a', { mode: 'direct', autonomy: 'autonomous' }],
        ['bindings.agent.a', { capabilities: ['memory'] }],
        ['presentation.gateway.g', { mode: 'unified', autonomy: 'supervised' }],
        ['bindings.gateway.g', { capabilities: ['everything'] }],
      ]),
      { default: 'allow', rules: [{ id: 'r', effect: 'deny', tools: ['x'] }] },
    );
    expect(principalsChanged(before, after)).toEqual([
      { kind: 'agent', id: 'a' },
      { kind: 'gateway', id: 'g' },
    ]);
  });
});
