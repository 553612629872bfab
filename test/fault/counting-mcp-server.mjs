// A real MCP server over stdio that writes down every call that ran: the `record` tool appends its
// `tag` argument, one line, to the file COUNT_FILE names (synchronously, before it answers), so the
// fault suite can compare the calls that ran on the backend with the audit events in the stream.
import { appendFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const countFile = process.env.COUNT_FILE;
if (!countFile) throw new Error('COUNT_FILE must name the file calls are written to');

const server = new Server({ name: 'counting', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'record',
      description: 'Records that it ran, with a tag.',
      inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const tag = String(req.params.arguments?.tag ?? '');
  appendFileSync(countFile, `${tag}\n`);
  return { content: [{ type: 'text', text: `recorded ${tag}` }] };
});

await server.connect(new StdioServerTransport());
