import type { NatsConnection } from '@nats-io/transport-node';
import type { Tracer } from '@opentelemetry/api';
import { CatalogChanged, PresentationChanged } from '@toolsurface/proto';
import { principalFromProto, runDurableConsumer, Subjects, type Logger, type RunningConsumer } from '@toolsurface/platform';
import type { ToolsChange } from '../domain/mcp';

/** The durable consumers of the dispatch replicas, one per subject, shared: each event is handled by one replica. */
export const TOOLS_CHANGED_CONSUMERS = {
  presentation: 'dispatch-mcp-presentation',
  catalog: 'dispatch-mcp-catalog',
} as const;

/**
 * Hears what changes a principal's tools, wherever it happened: `presentation.changed` (its mode or
 * bindings, from surface-resolver) and `catalog.changed` (a capability's tools, from any dispatch
 * replica). Durable pull consumers of the TOOLSURFACE stream, shared by the replicas: one replica
 * handles each event (it marks the affected MCP sessions in their bucket, whose watch tells every
 * replica; the one holding a session's GET stream notifies it), and an event published while no
 * replica runs is handled by the first that starts, so its sessions still learn of it. An event is
 * acknowledged once its sessions are marked; a failure redelivers it (at most 10 times, then it is
 * dropped and those sessions keep their surface until it expires).
 */
export class ToolsChangedSubscriber {
  private readonly consumers: RunningConsumer[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly handle: (change: ToolsChange) => Promise<void>,
    private readonly deps: { tracer: Tracer; logger: Logger },
  ) {}

  async start(): Promise<void> {
    await this.consume(TOOLS_CHANGED_CONSUMERS.presentation, Subjects.presentationChanged, (data) => ({
      principal: principalFromProto(PresentationChanged.decode(data).principal),
    }));
    await this.consume(TOOLS_CHANGED_CONSUMERS.catalog, Subjects.catalogChanged, (data) => ({
      capability: CatalogChanged.decode(data).capability,
    }));
  }

  async stop(): Promise<void> {
    await Promise.all(this.consumers.splice(0).map((c) => c.stop()));
  }

  private async consume(durable: string, subject: string, decode: (data: Uint8Array) => ToolsChange): Promise<void> {
    const consumer = await runDurableConsumer(
      this.nc,
      durable,
      subject,
      async (m) => {
        let change: ToolsChange;
        try {
          change = decode(m.data);
        } catch (err) {
          this.deps.logger.warn({ err, subject }, 'dropped an event that does not decode');
          return 'term';
        }
        await this.handle(change);
        return 'ack';
      },
      this.deps,
    );
    this.consumers.push(consumer);
  }
}
