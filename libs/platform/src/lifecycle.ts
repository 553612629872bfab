import type { Logger } from 'pino';

/** An ordered list of shutdown steps, each logged and isolated; `run` is idempotent. */
export class Shutdown {
  private readonly steps: Array<{ name: string; fn: () => Promise<void> | void }> = [];
  private running: Promise<void> | undefined;
  constructor(private readonly logger: Logger) {}

  /** Adds a step; steps run in the order added. */
  add(name: string, fn: () => Promise<void> | void): this {
    this.steps.push({ name, fn });
    return this;
  }

  /** Runs every step once, in order; a failing step is logged and the next one still runs. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const s of this.steps) {
        try {
          await s.fn();
          this.logger.info({ step: s.name }, 'shutdown step done');
        } catch (err) {
          this.logger.error({ err, step: s.name }, 'shutdown step failed');
        }
      }
    })();
    return this.running;
  }

  /** Runs the steps on SIGTERM and SIGINT, then exits 0. */
  onSignals(afterExit: () => void = () => process.exit(0)): void {
    const handler = () => void this.run().then(afterExit);
    process.once('SIGTERM', handler);
    process.once('SIGINT', handler);
  }
}
