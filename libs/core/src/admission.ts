import { argumentsMatch, type ArgumentMatch } from './argument-match';
import { globMatch } from './glob';
import { principalKey, type PrincipalRef, type Via } from './types';

/** One admission rule of the declarative config. Globs use `*` and `?` (see globMatch). */
export interface AdmissionRule {
  /** Stable ID, recorded on every decision the rule makes. */
  id: string;
  effect: 'allow' | 'deny';
  /** Globs over "kind:id", e.g. "agent:*". Default: all. */
  principals: string[];
  /** Globs over capability names ("system" for system tools). Default: all. */
  capabilities: string[];
  /** Globs over the tool name the capability publishes. Default: all. */
  tools: string[];
  /**
   * Argument constraints: the rule applies only when every named argument is present (keys compared
   * without case) and its value matches the glob: strings as they are and, when they hold a slash,
   * also as a normalised POSIX path; numbers and booleans as JSON. Arrays are looked through at any
   * depth. A deny rule applies when any value matches in any form, when an array's leaves joined
   * match, or when a value is an object (fails closed); an allow rule only when every value matches
   * in every form. A rule with constraints is conditional. See argument-match.ts and docs/security.md.
   */
  arguments?: Record<string, string>;
  /** How argument globs compare (ArgumentMatch); default `folded` for deny, `exact` for allow. */
  match?: ArgumentMatch;
}

/** The admission policy: ordered rules and the default effect when none matches. */
export interface AdmissionPolicy {
  default: 'allow' | 'deny';
  rules: AdmissionRule[];
  /** Rate and size limits on admitted calls (see AdmissionLimit). */
  limits?: AdmissionLimit[];
}

/** What admission is asked: the same inputs on every path (docs/DESIGN.md product rule 6). */
export interface AdmissionInput {
  principal: PrincipalRef;
  capability: string;
  /** The name the capability publishes. */
  tool: string;
  arguments: Record<string, unknown>;
  /** How the call arrived; recorded, never a reason to decide differently. */
  via: Via;
}

/** A decision and the rule that made it ("default" when no rule matched). */
export interface AdmissionResult {
  decision: 'allow' | 'deny';
  rule: string;
}

/** Whether a rule's globs take in this call; `key` is the principal's principalKey (built once per call, not per rule). */
function ruleMatches(rule: AdmissionRule, key: string, capability: string, tool: string): boolean {
  return (
    rule.principals.some((g) => globMatch(g, key)) &&
    rule.capabilities.some((g) => globMatch(g, capability)) &&
    rule.tools.some((g) => globMatch(g, tool))
  );
}

/**
 * The one admission function (docs/DESIGN.md product rule 6; call path step 5). Deny overrides: any
 * matching deny rule refuses; otherwise a matching allow rule admits; otherwise the default.
 */
export function admit(input: AdmissionInput, policy: AdmissionPolicy): AdmissionResult {
  let allowRule: string | undefined;
  const key = principalKey(input.principal);
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, key, input.capability, input.tool)) continue;
    if (!argumentsMatch(rule, input.arguments)) continue;
    if (rule.effect === 'deny') return { decision: 'deny', rule: rule.id };
    allowRule ??= rule.id;
  }
  if (allowRule !== undefined) return { decision: 'allow', rule: allowRule };
  return { decision: policy.default, rule: 'default' };
}

/**
 * Whether admission would refuse this tool for this principal whatever the arguments: the filter
 * for listed tools and discovery results (product rule 6).
 */
export function refusedOutright(principal: PrincipalRef, capability: string, tool: string, policy: AdmissionPolicy): boolean {
  return hiddenByRule(principal, capability, tool, policy) !== undefined;
}

/**
 * The rule that hides this tool from this principal (refuses it whatever the arguments), "default"
 * when the default deny does, or undefined when the tool is not hidden (see refusedOutright).
 */
export function hiddenByRule(principal: PrincipalRef, capability: string, tool: string, policy: AdmissionPolicy): string | undefined {
  let allowed = false;
  const key = principalKey(principal);
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, key, capability, tool)) continue;
    // A conditional deny refuses only some arguments; a conditional allow admits some.
    if (rule.effect === 'deny' && !rule.arguments) return rule.id;
    if (rule.effect === 'allow') allowed = true;
  }
  return !allowed && policy.default === 'deny' ? 'default' : undefined;
}

/**
 * A limit of the admission policy: rate and size bounds on the calls it matches. Every matching
 * limit applies (the tightest wins). Limits never widen what rules allow; they only refuse.
 */
export interface AdmissionLimit {
  /** Stable ID, recorded as the rule of every decision the limit makes. */
  id: string;
  /** Globs over "kind:id". Default: all. */
  principals: string[];
  /** Globs over capability names ("system" for system tools). Default: all. */
  capabilities: string[];
  /** Globs over the tool name the capability publishes. Default: all. */
  tools: string[];
  /**
   * A token bucket of `calls` tokens, refilled evenly at `calls` per `perSeconds`: a burst of
   * `calls` at once, then the refill rate. So one `perSeconds` window can admit up to about twice
   * `calls` (a full bucket plus that window's refill), and any longer span about `calls` per window. `per: 'principal'` shares one bucket across every tool the
   * limit matches; `per: 'tool'` gives each (capability, tool) its own bucket. Buckets are per
   * principal. Dispatch keeps the buckets in NATS, so the bound holds across its replicas and
   * restarts (docs/DESIGN.md, "Rate limits").
   */
  rate?: { calls: number; perSeconds: number; per: 'principal' | 'tool' };
  /** Largest accepted arguments, as UTF-8 bytes of their JSON text. */
  maxArgumentBytes?: number;
  /** Largest accepted result (content plus structuredContent), as UTF-8 bytes of their JSON text. */
  maxResultBytes?: number;
}

/** The limits that apply to a call (in policy order). */
export function limitsFor(principal: PrincipalRef, capability: string, tool: string, policy: AdmissionPolicy): AdmissionLimit[] {
  const limits = policy.limits;
  if (!limits || limits.length === 0) return [];
  const key = principalKey(principal);
  return limits.filter(
    (l) =>
      l.principals.some((g) => globMatch(g, key)) &&
      l.capabilities.some((g) => globMatch(g, capability)) &&
      l.tools.some((g) => globMatch(g, tool)),
  );
}

/** The first limit whose size bound `bytes` exceeds, or undefined. */
export function sizeLimitExceeded(
  limits: readonly AdmissionLimit[],
  bytes: number,
  which: 'maxArgumentBytes' | 'maxResultBytes',
): { limit: AdmissionLimit; max: number } | undefined {
  for (const limit of limits) {
    const max = limit[which];
    if (max !== undefined && bytes > max) return { limit, max };
  }
  return undefined;
}

interface Bucket {
  tokens: number;
  /** ms of the last refill. */
  at: number;
  calls: number;
  perMs: number;
}

/** Why a rate limit refused a call: the limit, and how long until it would admit one, ms. */
export interface RateRefusal {
  limit: AdmissionLimit;
  retryAfterMs: number;
}

/**
 * Where admission takes rate-limit tokens: `take` either consumes one token from every bucket the
 * call's limits name, or none when any is empty (a refused call costs nothing), and returns the
 * refusal. RateLimiter keeps buckets in one process; dispatch keeps them in NATS, shared by its
 * replicas and kept across restarts.
 */
export interface RateLimits {
  take(
    limits: readonly AdmissionLimit[],
    principal: PrincipalRef,
    capability: string,
    tool: string,
    now: number,
  ): RateRefusal | undefined | Promise<RateRefusal | undefined>;
}

/**
 * The bucket a rate limit gives a call: the limit's ID, its rate (`<calls>/<perMs>`, so a changed
 * limit starts from a full bucket), the principal and, per tool, the capability and tool, joined
 * by NUL (which no ID or name holds).
 */
export function rateBucketKey(limit: AdmissionLimit, principal: PrincipalRef, capability: string, tool: string): string {
  const rate = limit.rate!;
  const who = principalKey(principal);
  return `${limit.id}\u0000${rate.calls}/${rate.perSeconds * 1000}\u0000${who}${rate.per === 'tool' ? `\u0000${capability}\u0000${tool}` : ''}`;
}

/**
 * Tokens a bucket of `calls` per `perMs` holds at `now` (ms) when it held `tokens` at `at`: refilled
 * evenly, never past `calls`. A clock behind `at` refills nothing.
 */
export function refilledTokens(tokens: number, at: number, calls: number, perMs: number, now: number): number {
  return now > at ? Math.min(calls, tokens + ((now - at) * calls) / perMs) : tokens;
}

/** How long until a bucket holding `tokens` (< 1) admits one call, ms (at least 1). */
export function retryAfterMs(tokens: number, calls: number, perMs: number): number {
  return Math.max(1, Math.ceil(((1 - tokens) * perMs) / calls - 1e-6));
}

/**
 * Token buckets for the rate bounds of admission limits, in this process's memory (one replica, or
 * tests). Buckets that have refilled completely are dropped once more than `maxBuckets` exist.
 */
export class RateLimiter implements RateLimits {
  private readonly buckets = new Map<string, Bucket>();
  /** `now` of the last sweep. */
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(private readonly maxBuckets = 100_000) {}

  /**
   * Takes a token for one call at time `now` (ms). Returns undefined when admitted, or the limit that
   * refused it and how long until it would admit a call, in ms.
   */
  take(limits: readonly AdmissionLimit[], principal: PrincipalRef, capability: string, tool: string, now: number): RateRefusal | undefined {
    const picked: Bucket[] = [];
    // Room is made before any bucket is picked: a sweep in the loop could drop one already picked.
    if (this.buckets.size >= this.maxBuckets) this.sweep(now);
    for (const limit of limits) {
      const rate = limit.rate;
      if (!rate) continue;
      const perMs = rate.perSeconds * 1000;
      const key = rateBucketKey(limit, principal, capability, tool);
      let b = this.buckets.get(key);
      if (!b) {
        b = { tokens: rate.calls, at: now, calls: rate.calls, perMs };
        this.buckets.set(key, b);
      }
      refill(b, now);
      if (b.tokens < 1) return { limit, retryAfterMs: retryAfterMs(b.tokens, rate.calls, perMs) };
      picked.push(b);
    }
    for (const b of picked) b.tokens -= 1;
    return undefined;
  }

  /** Number of live buckets (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops buckets that have refilled completely; at most once a second (a full map of buckets in use would make every call pay for a pass). */
  private sweep(now: number): void {
    if (now - this.lastSweep < 1000 && now >= this.lastSweep) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) {
      refill(b, now);
      if (b.tokens >= b.calls) this.buckets.delete(key);
    }
  }
}

function refill(b: Bucket, now: number): void {
  if (now > b.at) {
    b.tokens = refilledTokens(b.tokens, b.at, b.calls, b.perMs, now);
    b.at = now;
  }
}
