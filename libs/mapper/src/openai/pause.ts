/**
 * A pause of the model after endpoint failures in a row: while the endpoint is down or hangs,
 * each request would otherwise wait for its timeout before the rule engine answers. After
 * `after` failures in a row the model is skipped for `ms`; then one request tries it again, and a
 * failure pauses it again, a success ends the pause. `after` 0: never paused. One instance per
 * endpoint: the mappers of every snapshot share it.
 */
export class EndpointPause {
  private failures = 0;
  private until = 0;

  constructor(
    readonly after: number,
    readonly ms: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Whether the model is to be skipped now. */
  paused(): boolean {
    return this.after > 0 && this.clock() < this.until;
  }

  /** Records an endpoint failure; true when it starts a pause. */
  failed(): boolean {
    this.failures++;
    if (this.after <= 0 || this.failures < this.after) return false;
    this.until = this.clock() + this.ms;
    return true;
  }

  /** Records an answer from the endpoint: the count starts again. */
  answered(): void {
    this.failures = 0;
    this.until = 0;
  }
}
