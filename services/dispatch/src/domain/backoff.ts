/** Longest wait between two connection attempts of a capability, ms (the brief's cap). */
export const BACKOFF_CAP_MS = 30_000;
/** First wait after a failed attempt, ms. */
export const BACKOFF_BASE_MS = 500;

/**
 * Wait before reconnect attempt `attempt` (0 for the first retry): exponential from 500 ms, capped
 * at 30 s, with "equal jitter" (half fixed, half random) so replicas that lost a server together do
 * not hammer it in step.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
