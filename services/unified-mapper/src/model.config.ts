// The model mapper's settings (MAPPER, MAPPER_OPENAI_*), read by config.ts. The API key is read
// here once, at start, and is never logged nor put in an error message.
import { readFileSync } from 'node:fs';
import { envInt } from '@toolsurface/platform';

/** An OpenAI-compatible chat-completions endpoint that picks among the rule engine's top candidates. */
export interface ModelMapperConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  candidates: number;
  pauseAfter: number;
  pauseMs: number;
}

/** The endpoint when MAPPER=openai, else undefined (the rule engine alone, the default); throws an Error naming the bad variable. */
export function modelMapperConfig(env: NodeJS.ProcessEnv): ModelMapperConfig | undefined {
  const kind = env.MAPPER || 'rules';
  if (kind === 'rules') return undefined;
  if (kind !== 'openai') throw new Error(`MAPPER must be "rules" or "openai", got "${kind}"`);
  const baseUrl = env.MAPPER_OPENAI_BASE_URL ?? '';
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`MAPPER_OPENAI_BASE_URL must be an http(s) URL such as https://api.openai.com/v1 when MAPPER=openai, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`MAPPER_OPENAI_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  // (a key in the URL would be logged with it)
  if (url.username || url.password) throw new Error('MAPPER_OPENAI_BASE_URL must not carry credentials; use MAPPER_OPENAI_API_KEY_FILE');
  // (requests go to {url}/chat/completions, after any query; and a query may hold a key, logged with the URL)
  if (url.search || url.hash)
    throw new Error('MAPPER_OPENAI_BASE_URL must not carry a query or fragment: requests go to {url}/chat/completions');
  const model = env.MAPPER_OPENAI_MODEL ?? '';
  if (model.trim() === '') throw new Error('MAPPER_OPENAI_MODEL must name the model when MAPPER=openai');
  return {
    baseUrl,
    model,
    apiKey: apiKey(env),
    // under dispatch's DOWNSTREAM_TIMEOUT_MS (5000), so a slow model still leaves time for the rule engine's answer
    timeoutMs: envInt(env, 'MAPPER_OPENAI_TIMEOUT_MS', 4000, 1, 600_000),
    // the rule engine re-ranks 30 retrieved tools; the model sees at most those
    candidates: envInt(env, 'MAPPER_OPENAI_CANDIDATES', 8, 1, 30),
    // a hung endpoint would otherwise cost every request its timeout
    pauseAfter: envInt(env, 'MAPPER_OPENAI_PAUSE_AFTER', 5, 0, 1000),
    pauseMs: envInt(env, 'MAPPER_OPENAI_PAUSE_MS', 30_000, 1, 3_600_000),
  };
}

/** The key from MAPPER_OPENAI_API_KEY_FILE or MAPPER_OPENAI_API_KEY (not both); none for a local server that needs none. */
function apiKey(env: NodeJS.ProcessEnv): string | undefined {
  const file = env.MAPPER_OPENAI_API_KEY_FILE;
  const direct = env.MAPPER_OPENAI_API_KEY;
  if (file && direct) throw new Error('set MAPPER_OPENAI_API_KEY_FILE or MAPPER_OPENAI_API_KEY, not both');
  if (!file) return direct || undefined;
  let key: string;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch (e) {
    throw new Error(`MAPPER_OPENAI_API_KEY_FILE: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (key === '') throw new Error(`MAPPER_OPENAI_API_KEY_FILE: ${file} is empty`);
  return key;
}
