import { describe, expect, it } from 'vitest';
import { formatPrincipal, parsePrincipal, UsageError } from './principal';

describe('parsePrincipal', () => {
  it('reads agent:ID and gateway:ID', () => {
    expect(parsePrincipal('agent:researcher')).toEqual({ kind: 'agent', id: 'researcher' });
    expect(parsePrincipal('gateway:partner-portal')).toEqual({ kind: 'gateway', id: 'partner-portal' });
    expect(parsePrincipal(`agent:${'a'.repeat(128)}`).id).toHaveLength(128);
  });

  it.each([
    ['researcher', 'needs a kind: write agent:researcher or gateway:researcher'],
    ['', 'needs a kind: write agent:ID or gateway:ID'],
    ['user:bob', 'unknown kind "user": use agent:ID or gateway:ID'],
    ['Agent:bob', 'unknown kind "Agent"'],
    [':bob', 'unknown kind ""'],
    ['agent:', 'invalid ID'],
    ['agent:a b', 'invalid ID'],
    ['agent:a:b', 'invalid ID'],
    ['agent:a.b', 'invalid ID'],
    [`agent:${'a'.repeat(129)}`, 'invalid ID: use 1-128 letters, digits, "_" or "-"'],
  ])('refuses %j with a message that says what to write', (text, message) => {
    expect(() => parsePrincipal(text)).toThrow(UsageError);
    expect(() => parsePrincipal(text)).toThrow(message);
  });

  it('formats back', () => {
    expect(formatPrincipal(parsePrincipal('gateway:g1'))).toBe('gateway:g1');
  });
});
