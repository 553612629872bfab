import { ReasonCode, refusedOutright } from '@toolsurface/core';
import type { CallAudit } from './call-audit';
import type { CallContext } from './call-context';
import { modelError, success } from './call-result';
import { Messages } from './domain/messages';
import type { CallResult, DispatchPorts } from './domain/ports';

/** discover_tools and get_tool_schema (step 2 in discovery mode), answered by DiscoveryService for the surface's snapshot. */
export class DiscoveryMetaTools {
  constructor(
    private readonly ports: DispatchPorts,
    private readonly audit: CallAudit,
  ) {}

  async discoverTools(call: CallContext, query: string, limit: number): Promise<CallResult> {
    const { surface } = call;
    const res = await this.ports.discovery.discoverTools({ snapshotId: surface.snapshotId, query, limit }, call.deadline);
    // Defence in depth for product rule 6: never offer a tool admission would refuse outright.
    const snapshot = await this.ports.snapshots.get(surface.snapshotId);
    const policy = this.ports.settings.admissionPolicy();
    const hits = res.hits.filter((h) => {
      const def = snapshot.byName.get(h.name);
      return def !== undefined && !refusedOutright(surface.principal, def.capability, def.originalName, policy);
    });
    this.audit.rememberHits(
      surface.surfaceId,
      hits.map((h) => h.name),
    );
    const body: Record<string, unknown> = { hits, total_tools: res.totalTools };
    if (hits.length === 0 && res.emptyReason) body.empty_reason = res.emptyReason;
    if (res.hint) body.hint = res.hint;
    return success(
      { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: false },
      'discover_tools',
      'meta',
      0,
    );
  }

  async getToolSchema(call: CallContext, name: string): Promise<CallResult> {
    const { surface } = call;
    const snapshot = await this.ports.snapshots.get(surface.snapshotId);
    const def = snapshot.byName.get(name);
    if (!def || refusedOutright(surface.principal, def.capability, def.originalName, this.ports.settings.admissionPolicy())) {
      return modelError(ReasonCode.TOOL_NOT_IN_SNAPSHOT, Messages.notInSnapshot(name, surface.resolvedMode), {
        toolName: 'get_tool_schema',
        via: 'meta',
      });
    }
    const tool = await this.ports.discovery.getToolSchema({ snapshotId: surface.snapshotId, name }, call.deadline);
    const body = tool as unknown as Record<string, unknown>;
    return success(
      { content: [{ type: 'text', text: JSON.stringify(tool) }], structuredContent: body, isError: false },
      'get_tool_schema',
      'meta',
      0,
    );
  }
}
