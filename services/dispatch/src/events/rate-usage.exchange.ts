import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { RateLimiter, RateUsage } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';

/**
 * Core NATS subject (not in the TOOLSURFACE stream: nothing is stored) on which dispatch replicas
 * tell each other the rate-limit tokens they took. Only dispatch's NATS user may publish or
 * subscribe to it (deploy/k8s/components/nats-auth/nats.conf).
 */
export const RATE_USAGE_SUBJECT = '_toolsurface.ratelimit.usage.v1';

/** Most usage entries in one message (about 100 bytes each: well under NATS' 1 MB default payload). */
const MAX_ENTRIES_PER_MESSAGE = 2000;

interface UsageMessage {
  replica: string;
  usage: RateUsage[];
}

/**
 * Shares admission's rate-limit buckets between dispatch replicas: every `intervalMs` it publishes
 * what the local RateLimiter took and takes off it what the other replicas published, so a limit
 * of N calls holds across replicas (docs/security.md, "Limits") instead of N per replica. Calls are
 * still decided locally; the bound can be exceeded by what the replicas admit within one interval.
 */
export class RateUsageExchange {
  private timer: NodeJS.Timeout | undefined;
  private sub: Subscription | undefined;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly nc: NatsConnection,
    private readonly limiter: RateLimiter,
    private readonly logger: Logger,
    private readonly opts: { intervalMs: number; replicaId?: string; now?: () => number },
    readonly replicaId = opts.replicaId ?? randomUUID(),
  ) {}

  /** Subscribes to the other replicas' reports and starts reporting this one's. */
  start(): void {
    const now = this.opts.now ?? Date.now;
    this.sub = this.nc.subscribe(RATE_USAGE_SUBJECT, {
      callback: (err, m) => {
        if (err) {
          this.logger.warn({ err }, 'rate-limit usage subscription failed');
          return;
        }
        let msg: UsageMessage;
        try {
          msg = JSON.parse(this.decoder.decode(m.data)) as UsageMessage;
        } catch (e) {
          this.logger.warn({ err: e }, 'ignored a rate-limit usage message that is not JSON');
          return;
        }
        if (msg?.replica === this.replicaId || !Array.isArray(msg?.usage)) return;
        this.limiter.absorb(msg.usage, now());
      },
    });
    this.timer = setInterval(() => this.flush(), this.opts.intervalMs);
    this.timer.unref();
  }

  /** Publishes what this replica took since the last report (nothing when it took nothing). */
  flush(): void {
    const usage = this.limiter.drainUsage();
    for (let i = 0; i < usage.length; i += MAX_ENTRIES_PER_MESSAGE) {
      const msg: UsageMessage = { replica: this.replicaId, usage: usage.slice(i, i + MAX_ENTRIES_PER_MESSAGE) };
      try {
        this.nc.publish(RATE_USAGE_SUBJECT, this.encoder.encode(JSON.stringify(msg)));
      } catch (err) {
        // A closed or draining connection: the other replicas miss this report, nothing else.
        this.logger.warn({ err }, 'could not publish rate-limit usage');
      }
    }
  }

  /** Reports once more, then stops. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.flush();
    this.sub?.unsubscribe();
    this.sub = undefined;
  }
}
