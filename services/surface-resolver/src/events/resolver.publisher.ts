import { PresentationChanged, SnapshotCreated, SurfaceClosed, SurfaceOpened } from '@toolsurface/proto';
import { EventPublisher, Subjects } from '@toolsurface/platform';
import { randomUUID } from 'node:crypto';

/** The events surface-resolver publishes on the TOOLSURFACE stream. */
export class ResolverPublisher {
  constructor(private readonly events: EventPublisher) {}

  /** toolsurface.snapshot.created.v1, de-duplicated by snapshot ID. */
  snapshotCreated(e: SnapshotCreated): Promise<void> {
    return this.events.publish(Subjects.snapshotCreated, SnapshotCreated.encode(e).finish(), `snapshot-${e.snapshotId}`);
  }

  /** toolsurface.surface.opened.v1, carrying the snapshot ID execute_tool is validated against. */
  surfaceOpened(e: SurfaceOpened): Promise<void> {
    return this.events.publish(Subjects.surfaceOpened, SurfaceOpened.encode(e).finish(), `opened-${e.surfaceId}`);
  }

  /** toolsurface.surface.closed.v1. */
  surfaceClosed(e: SurfaceClosed): Promise<void> {
    return this.events.publish(Subjects.surfaceClosed, SurfaceClosed.encode(e).finish(), `closed-${e.surfaceId}`);
  }

  /** toolsurface.presentation.changed.v1. */
  presentationChanged(e: PresentationChanged): Promise<void> {
    return this.events.publish(Subjects.presentationChanged, PresentationChanged.encode(e).finish(), `presentation-${randomUUID()}`);
  }
}
