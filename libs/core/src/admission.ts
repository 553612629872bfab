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
   * Argument constraints: the rule applies only when every named argument is present and its value
   * (strings as they are, other values as JSON) matches the glob. For an array value, a deny rule
   * applies when any element matches and an allow rule only when every element does. A rule with
   * constraints is conditional.
   */
  arguments?: Record<string, string>;
}

/** The admission policy: ordered rules and the default effect when none matches. */
export interface AdmissionPolicy {
  default: 'allow' | 'deny';
  rules: AdmissionRule[];
}

/** What admission is asked: the same inputs on every path (DESIGN.md product rule 6). */
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

function ruleMatches(rule: AdmissionRule, principal: PrincipalRef, capability: string, tool: string): boolean {
  const key = principalKey(principal);
  return (
    rule.principals.some((g) => globMatch(g, key)) &&
    rule.capabilities.some((g) => globMatch(g, capability)) &&
    rule.tools.some((g) => globMatch(g, tool))
  );
}

function valueMatches(glob: string, v: unknown): boolean {
  return globMatch(glob, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
}

function argumentsMatch(rule: AdmissionRule, args: Record<string, unknown>): boolean {
  if (!rule.arguments) return true;
  for (const [name, glob] of Object.entries(rule.arguments)) {
    if (!Object.prototype.hasOwnProperty.call(args, name)) return false;
    const v = args[name];
    // Deny when any listed path is denied; allow only when every one is allowed.
    const ok = Array.isArray(v)
      ? rule.effect === 'deny'
        ? v.some((e) => valueMatches(glob, e))
        : v.length > 0 && v.every((e) => valueMatches(glob, e))
      : valueMatches(glob, v);
    if (!ok) return false;
  }
  return true;
}

/**
 * The one admission function (DESIGN.md product rule 6; call path step 5). Deny overrides: any
 * matching deny rule refuses; otherwise a matching allow rule admits; otherwise the default.
 */
export function admit(input: AdmissionInput, policy: AdmissionPolicy): AdmissionResult {
  let allowRule: string | undefined;
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, input.principal, input.capability, input.tool)) continue;
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
  let allowed = false;
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, principal, capability, tool)) continue;
    // A conditional deny refuses only some arguments; a conditional allow admits some.
    if (rule.effect === 'deny' && !rule.arguments) return true;
    if (rule.effect === 'allow') allowed = true;
  }
  return !allowed && policy.default === 'deny';
}
