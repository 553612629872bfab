import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import type { AdmissionLimit, AdmissionPolicy, AdmissionRule } from './admission';
import { ARGUMENT_MATCHES } from './argument-match';
import type { McpKeyConfig, OrchestratorConfig } from './auth';
import { AppError, ReasonCode } from './errors';
import {
  CAPABILITY_NAME_PATTERN,
  PRINCIPAL_ID_PATTERN,
  principalKey,
  type Autonomy,
  type PresentationMode,
  type PrincipalKind,
} from './types';

/** A capability reached over stdio: a child process of each dispatch replica. */
export interface StdioCapability {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute working directory (relative paths in the file resolve against the file's folder). */
  cwd: string;
  /** Per-call deadline, milliseconds. */
  timeoutMs: number;
}
/** A capability reached over MCP Streamable HTTP. */
export interface HttpCapability {
  transport: 'streamable-http';
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}
/** One capability: an MCP server. */
export type CapabilitySpec = StdioCapability | HttpCapability;

/** One principal of the config with its settings and bindings. */
export interface PrincipalConfig {
  kind: PrincipalKind;
  id: string;
  mode: PresentationMode;
  autonomy: Autonomy;
  capabilities: string[];
}

/** The declarative configuration, validated. */
export interface ToolsurfaceConfig {
  capabilities: Record<string, CapabilitySpec>;
  principals: PrincipalConfig[];
  admission: AdmissionPolicy;
  /** Orchestrators and their bearer tokens; none means caller authentication is off. */
  orchestrators: OrchestratorConfig[];
  /** API keys of the MCP endpoint, each for its principals; none: the endpoint serves loopback only, without keys. */
  mcpKeys?: McpKeyConfig[];
  /** Hex SHA-256 of the resolved configuration's JSON. */
  hash: string;
}

/** Default per-call deadline of a capability, milliseconds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;
const globList = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 256 }, minItems: 1 } as const;

/** JSON Schema of the YAML config file (toolsurface.yaml). */
export const CONFIG_FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['capabilities', 'principals'],
  properties: {
    version: { const: 1 },
    capabilities: {
      type: 'object',
      propertyNames: { pattern: CAPABILITY_NAME_PATTERN.source },
      additionalProperties: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['transport', 'command'],
            properties: {
              transport: { const: 'stdio' },
              command: { type: 'string', minLength: 1 },
              args: { type: 'array', items: { type: 'string' } },
              env: stringMap,
              cwd: { type: 'string', minLength: 1 },
              timeout_ms: { type: 'integer', minimum: 1, maximum: 600_000 },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['transport', 'url'],
            properties: {
              transport: { const: 'streamable-http' },
              url: { type: 'string', pattern: '^https?://' },
              headers: stringMap,
              timeout_ms: { type: 'integer', minimum: 1, maximum: 600_000 },
            },
          },
        ],
      },
    },
    principals: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'id'],
        properties: {
          kind: { enum: ['agent', 'gateway'] },
          id: { type: 'string', pattern: PRINCIPAL_ID_PATTERN.source },
          mode: { enum: ['direct', 'discovery', 'unified', 'adaptive'] },
          autonomy: { enum: ['autonomous', 'supervised'] },
          capabilities: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        },
      },
    },
    orchestrators: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'token_sha256', 'principals'],
        properties: {
          id: { type: 'string', pattern: PRINCIPAL_ID_PATTERN.source },
          token_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          principals: globList,
          admin: { type: 'boolean' },
        },
      },
    },
    mcp_keys: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'key_sha256', 'principals'],
        properties: {
          id: { type: 'string', pattern: PRINCIPAL_ID_PATTERN.source },
          key_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          principals: globList,
        },
      },
    },
    admission: {
      type: 'object',
      additionalProperties: false,
      properties: {
        default: { enum: ['allow', 'deny'] },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id', 'effect'],
            properties: {
              id: { type: 'string', minLength: 1, maxLength: 128 },
              effect: { enum: ['allow', 'deny'] },
              principals: globList,
              capabilities: globList,
              tools: globList,
              arguments: { type: 'object', additionalProperties: { type: 'string', maxLength: 1024 } },
              // How argument globs compare (ArgumentMatch in argument-match.ts).
              match: { enum: [...ARGUMENT_MATCHES] },
            },
          },
        },
        limits: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['id'],
            anyOf: [{ required: ['rate'] }, { required: ['max_argument_bytes'] }, { required: ['max_result_bytes'] }],
            properties: {
              id: { type: 'string', minLength: 1, maxLength: 128 },
              principals: globList,
              capabilities: globList,
              tools: globList,
              rate: {
                type: 'object',
                additionalProperties: false,
                required: ['calls', 'per_seconds'],
                properties: {
                  calls: { type: 'integer', minimum: 1, maximum: 1_000_000 },
                  per_seconds: { type: 'number', exclusiveMinimum: 0, maximum: 86_400 },
                  per: { enum: ['principal', 'tool'] },
                },
              },
              max_argument_bytes: { type: 'integer', minimum: 1 },
              max_result_bytes: { type: 'integer', minimum: 1 },
            },
          },
        },
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const validateFile = ajv.compile(CONFIG_FILE_SCHEMA);

interface RawCapability {
  transport: 'stdio' | 'streamable-http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  timeout_ms?: number;
}
interface RawFile {
  capabilities: Record<string, RawCapability>;
  principals: Array<{ kind: PrincipalKind; id: string; mode?: PresentationMode; autonomy?: Autonomy; capabilities?: string[] }>;
  orchestrators?: Array<{ id: string; token_sha256: string; principals: string[]; admin?: boolean }>;
  mcp_keys?: Array<{ id: string; key_sha256: string; principals: string[] }>;
  admission?: {
    default?: 'allow' | 'deny';
    rules?: Array<Partial<AdmissionRule> & { id: string; effect: 'allow' | 'deny' }>;
    limits?: Array<{
      id: string;
      principals?: string[];
      capabilities?: string[];
      tools?: string[];
      rate?: { calls: number; per_seconds: number; per?: 'principal' | 'tool' };
      max_argument_bytes?: number;
      max_result_bytes?: number;
    }>;
  };
}

/**
 * Parses and validates the YAML config text. `baseDir` resolves relative stdio `cwd` (default: the
 * base dir itself) and replaces `${CONFIG_DIR}` in stdio args, env and cwd. Throws AppError INVALID_REQUEST naming every bad field by its JSON pointer.
 */
export function parseConfig(yamlText: string, baseDir: string): ToolsurfaceConfig {
  let doc: unknown;
  try {
    doc = parseYaml(yamlText);
  } catch (e) {
    throw new AppError(ReasonCode.INVALID_REQUEST, `config is not valid YAML: ${(e as Error).message}`, { cause: e });
  }
  if (!validateFile(doc)) {
    const problems = (validateFile.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: ${problems.join('; ')}`, { details: { problems } });
  }
  const raw = doc as RawFile;
  // `${CONFIG_DIR}` in a stdio capability's args, env or cwd stands for the config file's folder.
  const sub = (v: string) => v.split('${CONFIG_DIR}').join(baseDir);
  const capabilities: Record<string, CapabilitySpec> = {};
  for (const [name, c] of Object.entries(raw.capabilities)) {
    const timeoutMs = c.timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS;
    if (c.transport === 'stdio') {
      const cwdRaw = c.cwd === undefined ? baseDir : sub(c.cwd);
      const cwd = isAbsolute(cwdRaw) ? cwdRaw : resolve(baseDir, cwdRaw);
      const env = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, sub(v)]));
      capabilities[name] = { transport: 'stdio', command: c.command!, args: (c.args ?? []).map(sub), env, cwd, timeoutMs };
    } else {
      capabilities[name] = { transport: 'streamable-http', url: c.url!, headers: c.headers ?? {}, timeoutMs };
    }
  }
  const seen = new Set<string>();
  const principals: PrincipalConfig[] = raw.principals.map((p, i) => {
    const key = principalKey(p);
    if (seen.has(key)) throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: /principals/${i} repeats ${key}`);
    seen.add(key);
    for (const cap of p.capabilities ?? []) {
      if (!Object.hasOwn(capabilities, cap)) {
        throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: /principals/${i} binds unknown capability "${cap}"`);
      }
    }
    if (p.kind === 'agent' && p.autonomy === 'supervised') {
      throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: /principals/${i} is an agent; only gateways can be supervised`);
    }
    return { kind: p.kind, id: p.id, mode: p.mode ?? 'adaptive', autonomy: p.autonomy ?? 'autonomous', capabilities: p.capabilities ?? [] };
  });
  const ruleIds = new Set<string>();
  const rules: AdmissionRule[] = (raw.admission?.rules ?? []).map((r, i) => {
    if (ruleIds.has(r.id)) throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: /admission/rules/${i} repeats id "${r.id}"`);
    ruleIds.add(r.id);
    return {
      id: r.id,
      effect: r.effect,
      principals: r.principals ?? ['*'],
      capabilities: r.capabilities ?? ['*'],
      tools: r.tools ?? ['*'],
      ...(r.arguments ? { arguments: r.arguments } : {}),
      ...(r.match ? { match: r.match } : {}),
    };
  });
  const limits: AdmissionLimit[] = (raw.admission?.limits ?? []).map((l, i) => {
    if (ruleIds.has(l.id))
      throw new AppError(
        ReasonCode.INVALID_REQUEST,
        `config is invalid: /admission/limits/${i} repeats id "${l.id}" (rule and limit IDs share one namespace)`,
      );
    ruleIds.add(l.id);
    const limit: AdmissionLimit = {
      id: l.id,
      principals: l.principals ?? ['*'],
      capabilities: l.capabilities ?? ['*'],
      tools: l.tools ?? ['*'],
    };
    if (l.rate) limit.rate = { calls: l.rate.calls, perSeconds: l.rate.per_seconds, per: l.rate.per ?? 'tool' };
    if (l.max_argument_bytes !== undefined) limit.maxArgumentBytes = l.max_argument_bytes;
    if (l.max_result_bytes !== undefined) limit.maxResultBytes = l.max_result_bytes;
    return limit;
  });
  const orchestratorIds = new Set<string>();
  const orchestrators: OrchestratorConfig[] = (raw.orchestrators ?? []).map((o, i) => {
    if (orchestratorIds.has(o.id))
      throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: /orchestrators/${i} repeats id "${o.id}"`);
    orchestratorIds.add(o.id);
    return { id: o.id, tokenSha256: o.token_sha256, principals: o.principals, admin: o.admin ?? false };
  });
  const keyIds = new Set<string>();
  const mcpKeys: McpKeyConfig[] = (raw.mcp_keys ?? []).map((k, i) => {
    if (keyIds.has(k.id)) throw new AppError(ReasonCode.INVALID_REQUEST, `config is invalid: /mcp_keys/${i} repeats id "${k.id}"`);
    keyIds.add(k.id);
    return { id: k.id, keySha256: k.key_sha256, principals: k.principals };
  });
  const resolved = {
    capabilities,
    principals,
    orchestrators,
    // Left out when empty, so the hash of a config without keys stays what it was.
    ...(mcpKeys.length > 0 ? { mcpKeys } : {}),
    admission: { default: raw.admission?.default ?? 'allow', rules, ...(limits.length > 0 ? { limits } : {}) } as AdmissionPolicy,
  };
  // The hash covers the resolved config (absolute paths included), so a moved checkout re-applies.
  return { mcpKeys, ...resolved, hash: createHash('sha256').update(JSON.stringify(resolved), 'utf8').digest('hex') };
}

/** Reads and parses a config file; relative paths in it resolve against its folder. */
export function loadConfigFile(path: string): ToolsurfaceConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new AppError(ReasonCode.INVALID_REQUEST, `cannot read config file ${path}: ${(e as Error).message}`, { cause: e });
  }
  return parseConfig(text, dirname(resolve(path)));
}
