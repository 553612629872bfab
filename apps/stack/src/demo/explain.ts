// What the demo says about its figures so that a first reader can read them: how tokens are
// counted, what a discover_tools score is, and which admission rule hides a tool from a principal.
import { admit, loadConfigFile, refusedOutright, type AdmissionPolicy, type AdmissionRule, type PrincipalRef } from '@toolsurface/core';

/**
 * The tokenizer behind Surface.presented_tokens: surface-resolver counts with countToolTokens
 * (libs/core/src/tokens.ts). explain.test.ts checks that this is the encoding it loads.
 */
export const TOKENIZER = { package: 'gpt-tokenizer', encoding: 'o200k_base', family: 'GPT-4o family' } as const;

/** How presented tokens are counted: "counted with gpt-tokenizer's o200k_base encoding (GPT-4o family)". */
export const TOKENS_NOTE = `counted with ${TOKENIZER.package}'s ${TOKENIZER.encoding} encoding (${TOKENIZER.family})`;

/**
 * What a discover_tools score is, in two lines: the embedded index's BM25F over each tool's fields,
 * then its later stages (exact-name tiers, name bonus, demotions, semantic and learned re-ordering
 * of the first hits; libs/search/README.md "Ranking").
 */
export const SCORE_NOTE = [
  'BM25F relevance to this query (name, title, description, parameters), then later ranking stages;',
  'higher is better; comparable only within one search; not a probability',
] as const;

/** "deny for agent:notetaker, capability memory, tools delete_*": a rule's effect and what it matches. */
export function describeRule(rule: AdmissionRule): string {
  const parts: string[] = [];
  const some = (globs: string[]) => !(globs.length === 1 && globs[0] === '*');
  if (some(rule.principals)) parts.push(`for ${rule.principals.join(', ')}`);
  if (some(rule.capabilities)) parts.push(`capability ${rule.capabilities.join(', ')}`);
  if (some(rule.tools)) parts.push(`tools ${rule.tools.join(', ')}`);
  for (const [name, glob] of Object.entries(rule.arguments ?? {})) parts.push(`when ${name} matches ${glob}`);
  return parts.length > 0 ? `${rule.effect} ${parts.join(', ')}` : rule.effect;
}

/** A bound tool: the capability that publishes it and the name it publishes. */
export interface ToolRef {
  capability: string;
  name: string;
}

/** The rule that keeps some tools off a principal's surface, and those tools. */
export interface HidingRule {
  /** The rule's id, or "default" where the policy's default (deny) refuses them. */
  id: string;
  /** What the rule says (describeRule), or "default: deny". */
  text: string;
  tools: string[];
}

/**
 * Which rules of `policy` hide `tools` from `principal` (admission refuses them outright, so no
 * surface of the principal lists them), one entry per rule in the policy's order; tools that the
 * policy does not refuse outright are left out.
 */
export function hidingRules(policy: AdmissionPolicy, principal: PrincipalRef, tools: readonly ToolRef[]): HidingRule[] {
  const byRule = new Map<string, HidingRule>();
  for (const t of tools) {
    if (!refusedOutright(principal, t.capability, t.name, policy)) continue;
    // without arguments a conditional rule does not match: what decides is the unconditional deny, or the default
    const { rule: id } = admit({ principal, capability: t.capability, tool: t.name, arguments: {}, via: 'direct' }, policy);
    const rule = policy.rules.find((r) => r.id === id);
    const entry = byRule.get(id) ?? { id, text: rule ? describeRule(rule) : `default: ${policy.default}`, tools: [] };
    entry.tools.push(t.name);
    byRule.set(id, entry);
  }
  const order = (id: string) => (id === 'default' ? policy.rules.length : policy.rules.findIndex((r) => r.id === id));
  return [...byRule.values()].sort((a, b) => order(a.id) - order(b.id));
}

/** The admission policy of a config file, or the reason it could not be read. */
export function loadPolicy(configPath: string): AdmissionPolicy | Error {
  try {
    return loadConfigFile(configPath).admission;
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}
