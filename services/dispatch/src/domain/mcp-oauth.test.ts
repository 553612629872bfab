import { describe, expect, it } from 'vitest';
import {
  bearerChallenge,
  bearerToken,
  claimAdmits,
  metadataRoute,
  metadataUrlOf,
  principalsOfClaim,
  protectedResourceMetadata,
  resourceOf,
} from './mcp-oauth';

const PUBLIC = 'https://tools.example.com/';
const alice = { kind: 'agent' as const, id: 'alice' };

describe('protected-resource metadata (RFC 9728)', () => {
  it('routes the root document and the path-suffixed form of a principal URL', () => {
    expect(metadataRoute('/.well-known/oauth-protected-resource')).toEqual({});
    expect(metadataRoute('/.well-known/oauth-protected-resource/')).toEqual({});
    expect(metadataRoute('/.well-known/oauth-protected-resource/mcp/agent/alice')).toEqual({ principal: alice });
    expect(metadataRoute('/.well-known/oauth-protected-resource/mcp/gateway/g1')).toEqual({ principal: { kind: 'gateway', id: 'g1' } });
    expect(metadataRoute('/.well-known/oauth-protected-resource/mcp/robot/x')).toBeUndefined();
    expect(metadataRoute('/.well-known/oauth-protected-resourcex')).toBeUndefined();
    expect(metadataRoute('/mcp/agent/alice')).toBeUndefined();
  });

  it('names the resource (the public URL, without a trailing slash) and the authorization server', () => {
    expect(resourceOf(PUBLIC)).toBe('https://tools.example.com');
    expect(resourceOf(PUBLIC, alice)).toBe('https://tools.example.com/mcp/agent/alice');
    expect(metadataUrlOf(PUBLIC, alice)).toBe('https://tools.example.com/.well-known/oauth-protected-resource/mcp/agent/alice');
    expect(metadataUrlOf('https://h.example/base')).toBe('https://h.example/base/.well-known/oauth-protected-resource');
    expect(protectedResourceMetadata(PUBLIC, 'https://idp.example', alice)).toMatchObject({
      resource: 'https://tools.example.com/mcp/agent/alice',
      authorization_servers: ['https://idp.example'],
      bearer_methods_supported: ['header'],
    });
    expect(protectedResourceMetadata(PUBLIC, 'https://idp.example').resource).toBe('https://tools.example.com');
  });

  it('challenges with resource_metadata, and invalid_token only where a token was sent', () => {
    expect(bearerChallenge('https://m', false)).toBe('Bearer resource_metadata="https://m"');
    expect(bearerChallenge('https://m', true)).toBe('Bearer resource_metadata="https://m", error="invalid_token"');
  });
});

describe('the principal claim', () => {
  it('reads an array or a space-separated string; a bare ID is an agent', () => {
    expect(principalsOfClaim(['agent:alice', 'gateway:*'])).toEqual(['agent:alice', 'gateway:*']);
    expect(principalsOfClaim('alice gateway:g1')).toEqual(['agent:alice', 'gateway:g1']);
    expect(principalsOfClaim('alice')).toEqual(['agent:alice']);
    expect(principalsOfClaim(undefined)).toBeUndefined();
    expect(principalsOfClaim('')).toBeUndefined();
    expect(principalsOfClaim([1])).toBeUndefined();
    expect(principalsOfClaim({ a: 1 })).toBeUndefined();
  });

  it('admits only the principals it names (globs over kind:id)', () => {
    expect(claimAdmits('alice', alice)).toBe(true);
    expect(claimAdmits(['agent:*'], alice)).toBe(true);
    expect(claimAdmits(['agent:bob'], alice)).toBe(false);
    expect(claimAdmits('gateway:alice', alice)).toBe(false);
    expect(claimAdmits(undefined, alice)).toBe(false);
  });
});

describe('bearer values', () => {
  it('takes the token of an Authorization header ', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer x')).toBe('x');
    expect(bearerToken('Basic x')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
