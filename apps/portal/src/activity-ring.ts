import type { ToolCalled } from '@toolsurface/proto';
import { principalFromProto } from '@toolsurface/client';
import type { ActivityEntry } from './activity-types';

export type { ActivityEntry } from './activity-types';

/** Longest text kept of any field: event fields are bounded upstream, this bounds the portal's memory whatever arrives. */
const MAX_FIELD = 128;

const cut = (s: string | undefined): string => (s ?? '').slice(0, MAX_FIELD);

/** Largest time a Date holds, ms: past it the page cannot format the time at all. */
const MAX_DATE_MS = 8.64e15;

/** A time the page can format (0, "unknown", for any other), and a duration it can print (0 for NaN). */
const validTime = (ms: number): number => (Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? ms : 0);
const validDuration = (ms: number): number => (Number.isFinite(ms) ? Math.round(ms * 10) / 10 : 0);

/** The principal ("agent:ID") and entry of a decoded event, or undefined for a call refused before its surface (and so its principal) was known. */
export function entryOf(e: ToolCalled, seq: number): { principal: string; entry: ActivityEntry } | undefined {
  if (!e.principal?.id) return undefined;
  const principal = principalFromProto(e.principal);
  if (principal.startsWith('?')) return undefined;
  return {
    principal: principal.slice(0, MAX_FIELD),
    entry: {
      seq,
      atMs: validTime(Number(e.atMs)),
      tool: cut(e.toolName || e.attemptedName || e.calledName),
      calledName: cut(e.calledName),
      capability: cut(e.capability),
      via: cut(e.via),
      outcome: cut(e.outcome),
      reason: cut(e.reason),
      decision: cut(e.admission?.decision),
      rule: cut(e.admission?.rule),
      durationMs: validDuration(e.durationMs),
      orchestrator: cut(e.orchestrator),
    },
  };
}

/** A call the principal was refused: what the "Refusals only" filter keeps. */
export const isRefusal = (e: ActivityEntry): boolean => e.outcome === 'refused';

/** One principal's last calls: a fixed-size ring, so adding never grows it past its size. */
class Ring {
  private readonly items: ActivityEntry[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  add(e: ActivityEntry): void {
    if (this.items.length < this.size) this.items.push(e);
    else this.items[this.next] = e;
    this.next = (this.next + 1) % this.size;
  }

  /** Newest first. */
  newestFirst(): ActivityEntry[] {
    const n = this.items.length;
    const out: ActivityEntry[] = [];
    // The newest is just before `next`; walk backwards round the ring.
    for (let i = 1; i <= n; i++) out.push(this.items[(this.next - i + n * 2) % n]);
    return out;
  }

  get length(): number {
    return this.items.length;
  }
}

/** Bounds of the activity kept in memory. */
export interface ActivityBounds {
  /** Calls kept per principal (the oldest goes first). */
  perPrincipal: number;
  /** Principals kept; past it, the one whose last call is the oldest is forgotten. */
  principals: number;
}

/**
 * The last calls of each principal, in memory: at most `perPrincipal` calls for each of at most
 * `principals` principals, so memory is bounded whatever the traffic or the number of principals.
 */
export class ActivityStore {
  // A Map iterates in insertion order: re-inserting a principal on each call keeps the least recently active first.
  private readonly rings = new Map<string, Ring>();

  constructor(readonly bounds: ActivityBounds) {
    if (!(bounds.perPrincipal >= 1 && bounds.principals >= 1)) throw new Error('activity bounds must be at least 1');
  }

  add(principal: string, e: ActivityEntry): void {
    let ring = this.rings.get(principal);
    if (ring) this.rings.delete(principal);
    else ring = new Ring(this.bounds.perPrincipal);
    ring.add(e);
    this.rings.set(principal, ring);
    if (this.rings.size > this.bounds.principals) this.rings.delete(this.rings.keys().next().value as string);
  }

  /** A principal's calls, newest first; only its refusals with `refusalsOnly`. */
  recent(principal: string, refusalsOnly = false): ActivityEntry[] {
    const all = this.rings.get(principal)?.newestFirst() ?? [];
    return refusalsOnly ? all.filter(isRefusal) : all;
  }

  /** How many principals and calls are held. */
  size(): { principals: number; calls: number } {
    let calls = 0;
    for (const r of this.rings.values()) calls += r.length;
    return { principals: this.rings.size, calls };
  }
}
