import {
  DISCOVERY_META_TOOLS,
  RESERVED_TOOL_NAMES,
  SYSTEM_TOOLS,
  UNIFIED_META_TOOL,
  refusedOutright,
  type AdmissionPolicy,
  type BoundToolDefinition,
  type McpTool,
  type PrincipalRef,
  type ResolvedMode,
} from '@toolsurface/core';

/** What one capability publishes, as the catalog holds it. */
export interface CatalogEntry {
  capability: string;
  status: 'ok' | 'unavailable';
  tools: readonly McpTool[];
}

/** A name two capabilities publish (or a reserved name), shown under capability prefixes. */
export interface Collision {
  originalName: string;
  presentedNames: string[];
  rule: string;
}

/** The bound tools of a surface, before they become a snapshot. */
export interface BoundSet {
  definitions: BoundToolDefinition[];
  collisions: Collision[];
  /** Capabilities bound but with no tools in the catalog (never listed, or listed none). */
  missingCapabilities: string[];
  /** Bound capabilities that are down: their last known tools are in the set, and a call gets CAPABILITY_UNAVAILABLE. */
  unavailableCapabilities: string[];
  /** Published names left out because they are not valid MCP tool names ("<capability>/<name>", cut to 80). */
  invalidNames: string[];
}

/** MCP tool names: 1-128 characters of letters, digits, `_`, `-`, `.` and `/` (MCP SEP-986). */
// Anything else (spaces, newlines, other scripts) could not be called by name or could carry instructions.
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_./-]{1,128}$/;

/** The rule of docs/DESIGN.md product rule 9, as shown to callers. */
export const COLLISION_RULE =
  'a name published by more than one capability, equal to a system or meta-tool name, or starting with a bound capability\'s name and a dot, is presented as "<capability>.<name>" for every capability that publishes it';

/**
 * The bound tools a principal may see (docs/DESIGN.md product rules 5, 6, 9): every tool of its bound
 * capabilities, minus those admission refuses outright, with colliding names prefixed by their
 * capability. Deterministic: the same inputs give the same definitions in the same order.
 */
export function buildBoundSet(
  principal: PrincipalRef,
  boundCapabilities: readonly string[],
  catalog: ReadonlyMap<string, CatalogEntry>,
  policy: AdmissionPolicy,
): BoundSet {
  const missingCapabilities: string[] = [];
  const unavailableCapabilities: string[] = [];
  const invalidNames: string[] = [];
  const published: Array<{ capability: string; tool: McpTool }> = [];
  const bound = [...new Set(boundCapabilities)].sort();
  for (const capability of bound) {
    const entry = catalog.get(capability);
    // A capability that is down keeps its place: its last known tools are listed as before, so an
    // outage changes neither the tool list nor the resolved mode (docs/DESIGN.md product rule 11).
    if (!entry || entry.tools.length === 0) {
      missingCapabilities.push(capability);
      continue;
    }
    if (entry.status !== 'ok') unavailableCapabilities.push(capability);
    const seen = new Set<string>();
    for (const tool of entry.tools) {
      // A server that lists one name twice gets its first definition only.
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      if (typeof tool.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
        invalidNames.push(`${capability}/${String(tool.name).slice(0, 80)}`);
        continue;
      }
      if (refusedOutright(principal, capability, tool.name, policy)) continue;
      published.push({ capability, tool });
    }
  }
  const owners = new Map<string, string[]>();
  for (const p of published) owners.set(p.tool.name, [...(owners.get(p.tool.name) ?? []), p.capability]);

  const taken = new Set<string>();
  const definitions: BoundToolDefinition[] = [];
  const collisions = new Map<string, Collision>();
  // A name that looks like another capability's prefixed name ("everything.echo" published by "fx")
  // is prefixed itself, so no server can take over the name another server's tool is shown under.
  const looksPrefixed = (name: string) => bound.some((c) => name.startsWith(`${c}.`));
  const clashes = (name: string) => (owners.get(name)?.length ?? 0) > 1 || RESERVED_TOOL_NAMES.has(name) || looksPrefixed(name);
  // Unprefixed names first, so a prefixed name never takes a name a tool publishes as itself.
  for (const p of published) {
    if (!clashes(p.tool.name)) taken.add(p.tool.name);
  }
  for (const p of published) {
    const clash = clashes(p.tool.name);
    let name = p.tool.name;
    if (clash) {
      name = `${p.capability}.${p.tool.name}`;
      while (taken.has(name) || RESERVED_TOOL_NAMES.has(name)) name = `${p.capability}.${name}`;
      const c = collisions.get(p.tool.name) ?? { originalName: p.tool.name, presentedNames: [], rule: COLLISION_RULE };
      c.presentedNames.push(name);
      collisions.set(p.tool.name, c);
    }
    taken.add(name);
    definitions.push(toDefinition(p.tool, name, p.capability));
  }
  definitions.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { definitions, collisions: [...collisions.values()], missingCapabilities, unavailableCapabilities, invalidNames };
}

function toDefinition(tool: McpTool, name: string, capability: string): BoundToolDefinition {
  const d: BoundToolDefinition = {
    name,
    inputSchema: tool.inputSchema ?? { type: 'object' },
    capability,
    originalName: tool.name,
  };
  if (tool.title !== undefined) d.title = tool.title;
  if (tool.description !== undefined) d.description = tool.description;
  if (tool.outputSchema !== undefined) d.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) d.annotations = tool.annotations;
  return d;
}

/** A presented tool with where it comes from. */
export interface PresentedTool {
  tool: McpTool & { capability?: string; originalName?: string };
  kind: 'bound' | 'meta' | 'system';
}

/**
 * What the model sees (docs/DESIGN.md product rules 2-5): the mode's own tools, then the system tools
 * as themselves. Direct lists every bound tool with its full input schema.
 */
export function presentTools(mode: ResolvedMode, bound: readonly BoundToolDefinition[]): PresentedTool[] {
  const own: PresentedTool[] =
    mode === 'direct'
      ? bound.map((t) => ({ tool: t, kind: 'bound' as const }))
      : mode === 'discovery'
        ? DISCOVERY_META_TOOLS.map((t) => ({ tool: t, kind: 'meta' as const }))
        : [{ tool: UNIFIED_META_TOOL, kind: 'meta' as const }];
  return [...own, ...SYSTEM_TOOLS.map((t) => ({ tool: t, kind: 'system' as const }))];
}

/** The MCP `Tool` objects the model reads (the extra capability fields stripped). */
export function modelView(presented: readonly PresentedTool[]): McpTool[] {
  return presented.map(({ tool }) => {
    const { capability: _c, originalName: _o, ...mcp } = tool as BoundToolDefinition;
    return mcp;
  });
}
