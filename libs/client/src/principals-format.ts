import type { PrincipalSummary } from '@toolsurface/proto';
import { autonomyName, modeName, principalFromProto, resolvedModeName } from './enums';
import { table } from './format';

/** A principal summary as plain JSON with enum names (`toolsurface principals --json`, the portal's API). */
export function principalSummaryToJson(s: PrincipalSummary): {
  principal: string;
  kind: string;
  id: string;
  configuredMode: string;
  resolvedMode: string;
  autonomy: string;
  capabilities: string[];
  boundToolCount: number;
  adaptiveThreshold: number;
  inConfig: boolean;
} {
  return {
    principal: principalFromProto(s.principal),
    kind: principalFromProto(s.principal).split(':')[0] ?? '',
    id: s.principal?.id ?? '',
    configuredMode: modeName(s.configuredMode),
    resolvedMode: resolvedModeName(s.resolvedMode),
    autonomy: autonomyName(s.autonomy),
    capabilities: s.capabilities,
    boundToolCount: s.boundToolCount,
    adaptiveThreshold: s.adaptiveThreshold,
    inConfig: s.inConfig,
  };
}

/**
 * What `toolsurface principals` prints: one row per principal with its configured and resolved
 * mode, its bound-tool count (against adaptive's threshold when adaptive decides), autonomy and bindings.
 */
export function formatPrincipals(list: readonly PrincipalSummary[], width = 100): string {
  if (list.length === 0) return 'no principals configured';
  const rows = [['PRINCIPAL', 'MODE', 'RESOLVES TO', 'BOUND TOOLS', 'AUTONOMY', 'CAPABILITIES']];
  for (const s of list) {
    const j = principalSummaryToJson(s);
    rows.push([
      j.principal,
      j.configuredMode,
      j.resolvedMode,
      j.configuredMode === 'adaptive' ? `${j.boundToolCount} (switch at ${j.adaptiveThreshold})` : String(j.boundToolCount),
      j.kind === 'gateway' ? j.autonomy : '-',
      j.capabilities.join(',') || '-',
    ]);
  }
  return table(rows, { width });
}
