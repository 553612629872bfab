import type { SurfaceRecord, WatchedBucket } from '@toolsurface/state';
import type { SurfaceSource } from '../domain/ports';

// Key characters JetStream KV accepts, no leading or trailing dot; anything else cannot be a stored surface.
const KV_KEY = /^[-/_=a-zA-Z0-9]+(\.[-/_=a-zA-Z0-9]+)*$/;

/** Surfaces from the watched surfaces bucket; an ID not mirrored yet is read through once. */
export class BucketSurfaces implements SurfaceSource {
  constructor(private readonly surfaces: WatchedBucket<SurfaceRecord>) {}

  async get(surfaceId: string): Promise<SurfaceRecord | undefined> {
    const local = this.surfaces.get(surfaceId);
    if (local) return local;
    if (!KV_KEY.test(surfaceId)) return undefined;
    return this.surfaces.getFresh(surfaceId);
  }
}
