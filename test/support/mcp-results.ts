import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolCalled } from '@toolsurface/proto';
import type { GatewayFixture } from './gateway-fixture';

/** The text blocks of an MCP tool result, joined by newlines: what the model reads. */
export const mcpTextOf = (r: CallToolResult): string =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

/**
 * The tool.called events of one principal published since `from` (an index into `g.events`), once
 * `done` holds or 10 s passed; then 300 ms more, so that an event published a moment later (a call
 * that should not have run) shows up too.
 */
export async function toolCalledSince(
  g: GatewayFixture,
  from: number,
  principalId: string,
  done: (e: ToolCalled[]) => boolean,
): Promise<ToolCalled[]> {
  const read = () =>
    g.events
      .slice(from)
      .filter((e) => e.subject === 'toolsurface.tool.called.v1')
      .map((e) => ToolCalled.decode(e.data))
      .filter((e) => e.principal?.id === principalId);
  const deadline = Date.now() + 10_000;
  while (!done(read()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  return read();
}
