// A small real MCP server over stdio for the service test: paginated tools/list, draft-07 and
// draft-04 input schemas, and a tool that adds tools at run time (so the server sends
// notifications/tools/list_changed). Plain JavaScript so it runs with `node` alone.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const PAGE_SIZE = 2;
const tools = [
  {
    name: 'add_tool',
    description: 'Adds a tool named `name` to this server.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  {
    name: 'scale',
    description: 'Multiplies a strictly positive factor (draft-04 schema).',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { factor: { type: 'number', minimum: 0, exclusiveMinimum: true } },
      required: ['factor'],
    },
  },
  {
    name: 'pair',
    description: 'Takes a [string, number] pair (draft-07 schema).',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
      required: ['pair'],
    },
  },
];

const server = new Server({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });

server.setRequestHandler(ListToolsRequestSchema, async (req) => {
  const start = req.params?.cursor ? Number(req.params.cursor) : 0;
  const page = tools.slice(start, start + PAGE_SIZE);
  const next = start + PAGE_SIZE < tools.length ? String(start + PAGE_SIZE) : undefined;
  return next ? { tools: page, nextCursor: next } : { tools: page };
});

server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const { name, arguments: args = {} } = req.params;
  if (name === 'add_tool') {
    tools.push({ name: args.name, description: 'Added at run time.', inputSchema: { type: 'object' } });
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: `added ${args.name}` }] };
  }
  if (!tools.some((t) => t.name === name)) return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
  return { content: [{ type: 'text', text: `${name} ${JSON.stringify(args)}` }] };
});

await server.connect(new StdioServerTransport());
