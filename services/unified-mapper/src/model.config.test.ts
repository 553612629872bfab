import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'unified-mapper-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'sk-config-test-secret';
const keyFile = join(dir, 'key');
writeFileSync(keyFile, `  ${KEY}\n`);
const base = { MAPPER: 'openai', MAPPER_OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', MAPPER_OPENAI_MODEL: 'm' };

/** The message loadConfig throws for `env`. */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('the model mapper settings', () => {
  it('are off by default: the rule engine alone', () => {
    expect(loadConfig({}).model).toBeUndefined();
    expect(loadConfig({ MAPPER: 'rules', MAPPER_OPENAI_MODEL: 'ignored' }).model).toBeUndefined();
  });

  it('read the endpoint, the key from its file (trimmed), and the defaults', () => {
    expect(loadConfig({ ...base, MAPPER_OPENAI_API_KEY_FILE: keyFile }).model).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'm',
      apiKey: KEY,
      timeoutMs: 4000,
      candidates: 8,
      pauseAfter: 5,
      pauseMs: 30_000,
    });
    expect(
      loadConfig({ ...base, MAPPER_OPENAI_API_KEY: KEY, MAPPER_OPENAI_TIMEOUT_MS: '900', MAPPER_OPENAI_CANDIDATES: '3' }).model,
    ).toMatchObject({
      apiKey: KEY,
      timeoutMs: 900,
      candidates: 3,
    });
  });

  it.each([
    [{ MAPPER: 'llm' }, 'MAPPER must be'],
    [{ ...base, MAPPER_OPENAI_BASE_URL: '' }, 'MAPPER_OPENAI_BASE_URL'],
    [{ ...base, MAPPER_OPENAI_BASE_URL: 'ftp://host/v1' }, 'MAPPER_OPENAI_BASE_URL'],
    [{ ...base, MAPPER_OPENAI_BASE_URL: `https://user:${KEY}@host/v1` }, 'must not carry credentials'],
    // (requests go to {url}/chat/completions: a query would end up before the path, "?api-version=1/chat/completions")
    [{ ...base, MAPPER_OPENAI_BASE_URL: `https://host/v1?key=${KEY}` }, 'must not carry a query or fragment'],
    [{ ...base, MAPPER_OPENAI_BASE_URL: 'https://host/v1#models' }, 'must not carry a query or fragment'],
    [{ ...base, MAPPER_OPENAI_MODEL: ' ' }, 'MAPPER_OPENAI_MODEL'],
    [{ ...base, MAPPER_OPENAI_API_KEY_FILE: join(dir, 'absent') }, 'MAPPER_OPENAI_API_KEY_FILE: cannot read'],
    [{ ...base, MAPPER_OPENAI_API_KEY_FILE: keyFile, MAPPER_OPENAI_API_KEY: KEY }, 'not both'],
    [{ ...base, MAPPER_OPENAI_CANDIDATES: '31' }, 'MAPPER_OPENAI_CANDIDATES'],
    [{ ...base, MAPPER_OPENAI_TIMEOUT_MS: '0' }, 'MAPPER_OPENAI_TIMEOUT_MS'],
    [{ ...base, MAPPER_OPENAI_PAUSE_AFTER: '-1' }, 'MAPPER_OPENAI_PAUSE_AFTER'],
    [{ ...base, MAPPER_OPENAI_PAUSE_MS: '0' }, 'MAPPER_OPENAI_PAUSE_MS'],
  ])('refuse a bad setting, naming it and never showing the key: %o', (env, named) => {
    const message = refusal(env);
    expect(message).toContain(named);
    expect(message).not.toContain(KEY);
  });
});
