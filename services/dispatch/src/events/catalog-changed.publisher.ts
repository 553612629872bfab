import { randomUUID } from 'node:crypto';
import { CatalogChanged } from '@toolsurface/proto';
import { Subjects, type EventPublisher } from '@toolsurface/platform';

/** Publishes `toolsurface.catalog.changed.v1` once a capability's catalog record changed. */
export class CatalogChangedPublisher {
  constructor(private readonly events: EventPublisher) {}

  async publish(e: { capability: string; toolCount: number; status: 'ok' | 'unavailable'; atMs: number }): Promise<void> {
    await this.events.publish(Subjects.catalogChanged, CatalogChanged.encode(e).finish(), randomUUID());
  }
}
