import { formatMs } from './stats';

/** A step's expectation was not met; the message says what was expected and what came. */
export class StepFailure extends Error {
  override readonly name = 'StepFailure';
}

/** Throws StepFailure with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StepFailure(message);
}

/** What a step body uses to time gateway calls and print its details. */
export class StepContext {
  readonly lines: string[] = [];
  /** Milliseconds spent in calls made through `timed`. */
  elapsedMs = 0;
  /** A note shown after the status mark instead of the time (e.g. "refused as expected"). */
  note = '';

  /** Prints the call being made ("→ Service.Method(...)"). */
  call(text: string): void {
    this.lines.push(`→ ${text}`);
  }

  /** Prints one labelled value. */
  kv(label: string, value: string): void {
    this.lines.push(`${label.padEnd(10)} ${value}`);
  }

  /** Prints a block of text as it is, each line indented by `indent` spaces. */
  block(text: string, indent = 0): void {
    for (const l of text.split('\n')) this.lines.push(' '.repeat(indent) + l);
  }

  /** Runs `fn`, adding its wall time to the step's time; resolves its result. */
  async timed<T>(fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.elapsedMs += performance.now() - t;
    }
  }
}

/** Prints a scripted session step by step and counts what passed and failed. */
export class Report {
  passed = 0;
  readonly failures: string[] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly color: boolean,
    private readonly width = 100,
  ) {}

  private paint(code: number, text: string): string {
    return this.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  /** Prints a line. */
  line(text = ''): void {
    this.write(`${text}\n`);
  }

  /** Prints a section title. */
  section(title: string): void {
    this.write(`\n${this.paint(1, title)}\n`);
  }

  /**
   * Runs one step: its body prints through the context; the step's line shows ✓ or ✗, its id and
   * title, and the time spent in gateway calls. A thrown error fails the step (the session goes on).
   */
  async step<T>(id: string, title: string, body: (s: StepContext) => Promise<T>): Promise<T | undefined> {
    const s = new StepContext();
    let result: T | undefined;
    let error: unknown;
    try {
      result = await body(s);
    } catch (e) {
      error = e;
    }
    const mark = error === undefined ? this.paint(32, '✓') : this.paint(31, '✗');
    const right = s.note || (s.elapsedMs > 0 ? formatMs(s.elapsedMs) : '');
    const left = `  ${mark} ${id} ${title}`;
    // "  ✓ " is four columns wide, then the id, a space and the title.
    const visible = 5 + id.length + title.length;
    const header = right ? `${left}${' '.repeat(Math.max(2, this.width - 1 - visible - right.length))}${this.paint(2, right)}` : left;
    this.write(`${header}\n`);
    for (const l of s.lines) this.write(`       ${l}\n`);
    if (error === undefined) this.passed++;
    else {
      const message = describeError(error);
      this.failures.push(`${id} ${title}: ${message}`);
      this.write(`       ${this.paint(31, `FAILED: ${message}`)}\n`);
    }
    return result;
  }
}

/** One line for a failure: "REASON: message" for errors with a reason code, else the message. */
export function describeError(error: unknown): string {
  if (error instanceof StepFailure) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${typeof code === 'string' ? code : error.name}: ${error.message}`;
  }
  return String(error);
}
