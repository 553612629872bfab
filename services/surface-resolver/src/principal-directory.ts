import {
  ADAPTIVE_DISCOVERY_THRESHOLD,
  countToolTokens,
  PRINCIPAL_ID_PATTERN,
  resolveMode,
  type Autonomy,
  type CapabilitySpec,
  type McpKeyConfig,
  type OrchestratorConfig,
  type PresentationMode,
  type PrincipalKind,
  type PrincipalRef,
  type ResolvedMode,
} from '@toolsurface/core';
import { ADMISSION_KEY, MCP_KEYS_KEY, ORCHESTRATORS_KEY } from '@toolsurface/state';
import { modelView, presentTools, type Collision } from './domain/surface-builder';
import type { SurfaceResolverService } from './surface-resolver.service';

/** A principal as a surface opened now would see it (ListPrincipals). */
export interface PrincipalSummary {
  principal: PrincipalRef;
  configuredMode: PresentationMode;
  resolvedMode: ResolvedMode;
  autonomy: Autonomy;
  capabilities: string[];
  boundToolCount: number;
  inConfig: boolean;
}

/** The configuration in effect, credentials left out (GetEffectiveConfig). */
export interface EffectiveConfig {
  hash: string;
  appliedAtMs: number;
  config: Record<string, unknown>;
}

const KINDS: readonly PrincipalKind[] = ['agent', 'gateway'];

/** `<kind>.<id>` of a presentation or bindings record key, or undefined for any other key. */
function principalOfKey(key: string): PrincipalRef | undefined {
  const rest = key.startsWith('presentation.') ? key.slice(13) : key.startsWith('bindings.') ? key.slice(9) : undefined;
  if (rest === undefined) return undefined;
  const dot = rest.indexOf('.');
  const kind = rest.slice(0, dot) as PrincipalKind;
  const id = rest.slice(dot + 1);
  return KINDS.includes(kind) && PRINCIPAL_ID_PATTERN.test(id) ? { kind, id } : undefined;
}

/** Every principal that has a presentation or bindings record in effect, sorted by kind then id. */
export function listPrincipals(resolver: SurfaceResolverService, kind?: PrincipalKind): PrincipalSummary[] {
  const view = resolver.configView();
  const named = new Set((view.document()?.principals ?? []).map((p) => `${p.kind}.${p.id}`));
  const seen = new Map<string, PrincipalRef>();
  for (const [key] of [...view.entries('presentation.'), ...view.entries('bindings.')]) {
    const p = principalOfKey(key);
    if (p && (!kind || p.kind === kind)) seen.set(`${p.kind}.${p.id}`, p);
  }
  return [...seen.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, p]) => {
      const setting = resolver.presentation(p);
      const boundToolCount = resolver.boundSetNow(p).definitions.length;
      return {
        principal: p,
        configuredMode: setting.mode,
        resolvedMode: resolveMode(setting.mode, boundToolCount),
        autonomy: p.kind === 'gateway' ? setting.autonomy : 'autonomous',
        capabilities: resolver.bindings(p),
        boundToolCount,
        inConfig: named.has(key),
      };
    });
}

/** The bound-tool count from which adaptive resolves to discovery. */
export const ADAPTIVE_THRESHOLD = ADAPTIVE_DISCOVERY_THRESHOLD;

// Env values and headers may hold secrets (API keys, bearer tokens): only their names are shown.
function redactCapability(spec: CapabilitySpec): Record<string, unknown> {
  if (spec.transport === 'stdio') {
    const { env, ...rest } = spec;
    return { ...rest, env: Object.keys(env ?? {}) };
  }
  const { headers, ...rest } = spec;
  return { ...rest, headers: Object.keys(headers ?? {}) };
}

/** The configuration in effect: the applied document with the API's changes, credentials and secret values left out. */
export function effectiveConfig(resolver: SurfaceResolverService): EffectiveConfig {
  const view = resolver.configView();
  const doc = view.document();
  const principals = listPrincipals(resolver).map((s) => ({
    kind: s.principal.kind,
    id: s.principal.id,
    mode: s.configuredMode,
    autonomy: s.autonomy,
    capabilities: s.capabilities,
  }));
  const capabilities = view
    .entries('capability.')
    .map(([k, spec]) => [k.slice('capability.'.length), redactCapability(spec as CapabilitySpec)]);
  return {
    hash: doc?.hash ?? '',
    appliedAtMs: doc?.appliedAtMs ?? 0,
    config: {
      capabilities: Object.fromEntries(capabilities),
      principals,
      admission: view.get(ADMISSION_KEY) ?? { default: 'allow', rules: [] },
      orchestrators: ((view.get(ORCHESTRATORS_KEY) ?? []) as OrchestratorConfig[]).map((o) => ({
        id: o.id,
        principals: o.principals,
        admin: o.admin,
      })),
      mcpKeys: ((view.get(MCP_KEYS_KEY) ?? []) as McpKeyConfig[]).map((k) => ({ id: k.id, principals: k.principals })),
    },
  };
}

/** The tokenizer behind countToolTokens (libs/core tokens.ts). */
export const TOKENIZER = 'o200k_base';

/** A bound tool admission refuses outright, with the rule that refuses it. */
export interface HiddenTool {
  capability: string;
  name: string;
  rule: string;
}

/** One mode's presented tools and their token count. */
export interface ModePreview {
  mode: ResolvedMode;
  toolNames: string[];
  tokens: number;
}

/**
 * What the model would see in each resolved mode if a surface were opened now: the same bound set,
 * presentation and count as OpenSurface, so the figures equal the presented_tokens it reports.
 */
export function previewPresentation(
  resolver: SurfaceResolverService,
  p: PrincipalRef,
): { boundToolCount: number; modes: ModePreview[]; hidden: HiddenTool[]; collisions: Collision[] } {
  const set = resolver.boundSetNow(p);
  const hidden = resolver.hiddenTools(p);
  const modes = (['direct', 'discovery', 'unified'] as const).map((mode) => {
    const presented = presentTools(mode, set.definitions);
    return { mode, toolNames: presented.map((t) => t.tool.name), tokens: countToolTokens(modelView(presented)) };
  });
  return { boundToolCount: set.definitions.length, modes, hidden, collisions: set.collisions };
}
