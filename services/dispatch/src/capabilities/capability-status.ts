import { metrics, type ObservableGauge } from '@opentelemetry/api';
import { Attr, INSTRUMENTATION_SCOPE, Metric } from '@toolsurface/core';
import type { Logger } from '@toolsurface/platform';

/** What an operator is told about one capability on this replica. */
export interface CapabilityState {
  capability: string;
  connected: boolean;
  /** True once this replica's session connected at least once. */
  everConnected: boolean;
  /** Tools the catalog keeps for it (its last listing, or the stored one while it is down). */
  toolCount: number;
  /** Why it is down, when it is. */
  error?: string;
}

/** The gRPC health service name under which a capability's state is served (SERVING while connected). */
export function capabilityHealthService(capability: string): string {
  return `toolsurface.capability.${capability}`;
}

/**
 * The operator's view of capabilities on this replica: the `toolsurface.capability.up` gauge, a
 * health status per capability (through `onChange`), and one log line when a capability could not
 * connect since this replica started, so none is dropped silently.
 */
export class CapabilityStatus {
  private readonly states = new Map<string, CapabilityState>();
  private readonly listeners: Array<(s: CapabilityState, removed: boolean) => void> = [];
  private readonly gauge: ObservableGauge;
  private readonly observe = (r: { observe(v: number, a: Record<string, string>): void }) => {
    for (const s of this.states.values()) r.observe(s.connected ? 1 : 0, { [Attr.TS_CAPABILITY]: s.capability });
  };

  constructor(private readonly logger: Logger) {
    const meter = metrics.getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
    this.gauge = meter.createObservableGauge(Metric.CAPABILITY_UP.name, {
      unit: Metric.CAPABILITY_UP.unit,
      description: Metric.CAPABILITY_UP.description,
    });
    this.gauge.addCallback(this.observe);
  }

  /** Records what a session reported; `toolCount` is what the catalog keeps for it. */
  report(capability: string, connected: boolean, toolCount: number, error?: string): void {
    const before = this.states.get(capability);
    const everConnected = connected || before?.everConnected === true;
    const state: CapabilityState = { capability, connected, everConnected, toolCount, ...(error ? { error } : {}) };
    this.states.set(capability, state);
    if (!connected && !everConnected && before === undefined) {
      // The first report of this capability is a failure: say so loudly, whatever the catalog kept.
      if (toolCount === 0)
        this.logger.error({ capability, error }, 'capability never connected and has no known tools: it is missing from new surfaces');
      else
        this.logger.error(
          { capability, error, keptTools: toolCount },
          'capability not connected since start; new surfaces list its last known tools and calls to them get CAPABILITY_UNAVAILABLE',
        );
    }
    if (before?.connected !== connected || before === undefined) for (const l of this.listeners) l(state, false);
  }

  /** Forgets a capability removed from config. */
  remove(capability: string): void {
    const before = this.states.get(capability);
    if (!before) return;
    this.states.delete(capability);
    for (const l of this.listeners) l(before, true);
  }

  /** Calls `listener` on every change of connected state (and on removal); returns the current states. */
  onChange(listener: (s: CapabilityState, removed: boolean) => void): CapabilityState[] {
    this.listeners.push(listener);
    return this.list();
  }

  /** Every capability this replica knows, by name. */
  list(): CapabilityState[] {
    return [...this.states.values()].sort((a, b) => (a.capability < b.capability ? -1 : 1));
  }

  /** Stops observing the gauge. */
  stop(): void {
    this.gauge.removeCallback(this.observe);
  }
}
