import { AppError, ReasonCode, type PrincipalRef } from '@toolsurface/core';
import type { SystemToolPort, ToolResult } from './ports';

/** One journal note. */
export interface JournalEntry {
  entry: string;
  tags: string[];
  atMs: number;
}

/** Where each principal's journal is kept. */
export interface JournalPort {
  append(principal: PrincipalRef, entry: JournalEntry): Promise<void>;
  /** The newest `limit` entries, newest first. */
  read(principal: PrincipalRef, limit: number): Promise<JournalEntry[]>;
}

/** journal_read's limit when none is given. */
export const JOURNAL_READ_DEFAULT_LIMIT = 10;

function text(t: string): unknown[] {
  return [{ type: 'text', text: t }];
}

/**
 * The platform's own tools. Arguments arrive already validated against SYSTEM_TOOLS' schemas and
 * admitted (call path steps 4-5).
 */
export class SystemTools implements SystemToolPort {
  constructor(
    private readonly journal: JournalPort,
    private readonly now: () => number = Date.now,
  ) {}

  async run(name: string, principal: PrincipalRef, args: Record<string, unknown>): Promise<ToolResult> {
    switch (name) {
      case 'journal_append': {
        const entry: JournalEntry = {
          entry: String(args.entry),
          tags: Array.isArray(args.tags) ? args.tags.map(String) : [],
          atMs: this.now(),
        };
        await this.journal.append(principal, entry);
        const at = new Date(entry.atMs).toISOString();
        return { content: text(`Saved to your journal at ${at}.`), structuredContent: { saved: { at, tags: entry.tags } }, isError: false };
      }
      case 'journal_read': {
        const limit = typeof args.limit === 'number' ? args.limit : JOURNAL_READ_DEFAULT_LIMIT;
        const entries = (await this.journal.read(principal, limit)).map((e) => ({
          at: new Date(e.atMs).toISOString(),
          entry: e.entry,
          tags: e.tags,
        }));
        return {
          content: text(entries.length === 0 ? 'Your journal is empty.' : JSON.stringify({ entries })),
          structuredContent: { entries },
          isError: false,
        };
      }
      default:
        throw new AppError(ReasonCode.INTERNAL, `no runner for system tool ${name}`);
    }
  }
}
