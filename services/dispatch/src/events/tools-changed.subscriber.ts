import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { CatalogChanged, PresentationChanged } from '@toolsurface/proto';
import { principalFromProto, Subjects, type Logger } from '@toolsurface/platform';
import type { ToolsChange } from '../domain/mcp';

/** The queue group of the dispatch replicas: each event is handled by one of them. */
export const TOOLS_CHANGED_QUEUE = 'toolsurface-dispatch-mcp';

/**
 * Hears what changes a principal's tools, wherever it happened: `presentation.changed` (its mode or
 * bindings, from surface-resolver) and `catalog.changed` (a capability's tools, from any dispatch
 * replica). Core NATS subscriptions on the subjects the TOOLSURFACE stream stores, in one queue
 * group: one replica handles each event (it marks the affected MCP sessions in their bucket, whose
 * watch tells every replica; the one holding a session's GET stream notifies it). Nothing durable:
 * an event published while no replica listens changes no session, which then keeps its surface
 * until it expires.
 */
export class ToolsChangedSubscriber {
  private readonly subs: Subscription[] = [];

  constructor(
    private readonly nc: NatsConnection,
    private readonly handle: (change: ToolsChange) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.subscribe(Subjects.presentationChanged, (data) => ({ principal: principalFromProto(PresentationChanged.decode(data).principal) }));
    this.subscribe(Subjects.catalogChanged, (data) => ({ capability: CatalogChanged.decode(data).capability }));
  }

  stop(): void {
    for (const s of this.subs.splice(0)) s.unsubscribe();
  }

  private subscribe(subject: string, decode: (data: Uint8Array) => ToolsChange): void {
    const sub = this.nc.subscribe(subject, {
      queue: TOOLS_CHANGED_QUEUE,
      callback: (err, m) => {
        if (err) {
          this.logger.warn({ err, subject }, 'tools-changed subscription failed');
          return;
        }
        let change: ToolsChange;
        try {
          change = decode(m.data);
        } catch (e) {
          this.logger.warn({ err: e, subject }, 'ignored an event that does not decode');
          return;
        }
        void this.handle(change).catch((e: unknown) => this.logger.error({ err: e, subject }, 'MCP sessions were not told of a change'));
      },
    });
    this.subs.push(sub);
  }
}
