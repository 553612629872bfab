import type { NatsConnection } from '@nats-io/transport-node';
import { isAppError, ReasonCode } from '@toolsurface/core';
import { Subjects, runDurableConsumer, type Logger, type RunningConsumer } from '@toolsurface/platform';
import { SnapshotCreated } from '@toolsurface/proto';
import type { Tracer } from '@opentelemetry/api';
import type { DiscoveryService } from '../discovery.service';

/** Durable consumer `discovery-indexer` of snapshot.created: indexes each new snapshot ahead of its first search. */
export function startSnapshotIndexer(
  nc: NatsConnection,
  discovery: DiscoveryService,
  deps: { tracer: Tracer; logger: Logger },
): Promise<RunningConsumer> {
  return runDurableConsumer(
    nc,
    'discovery-indexer',
    Subjects.snapshotCreated,
    async (m) => {
      let event: SnapshotCreated;
      try {
        event = SnapshotCreated.decode(m.data);
      } catch (err) {
        deps.logger.error({ err }, 'snapshot.created is not a SnapshotCreated message; dropped');
        return 'term';
      }
      try {
        await discovery.ensureIndexed(event.snapshotId);
        return 'ack';
      } catch (err) {
        // A snapshot that is gone will never index: stop redelivering it.
        if (isAppError(err, ReasonCode.SNAPSHOT_NOT_FOUND)) return 'term';
        throw err;
      }
    },
    deps,
  );
}
