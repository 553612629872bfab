import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { countToolTokens, loadConfigFile, type AdmissionPolicy, type McpTool } from '@toolsurface/core';
import { DEFAULT_CONFIG_PATH } from '@toolsurface/devkit';
import { describeRule, hidingRules, loadPolicy, TOKENIZER, TOKENS_NOTE } from './explain';

type Counter = (text: string) => number;
const encoding = (name: string) =>
  (createRequire(import.meta.url)(`${TOKENIZER.package}/encoding/${name}`) as { countTokens: Counter }).countTokens;

describe('TOKENIZER', () => {
  it('names the encoding countToolTokens (what surface-resolver reports) really counts with', () => {
    const tools: McpTool[] = [
      {
        name: 'read_text_file',
        description: 'Read the complete contents of a file — UTF-8, 日本語 or ASCII — as text.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const json = JSON.stringify(tools);
    expect(countToolTokens(tools)).toBe(encoding(TOKENIZER.encoding)(json));
    // the sample tells encodings apart
    expect(encoding('cl100k_base')(json)).not.toBe(encoding(TOKENIZER.encoding)(json));
    expect(TOKENS_NOTE).toBe("counted with gpt-tokenizer's o200k_base encoding (GPT-4o family)");
  });
});

describe('hidingRules', () => {
  const notetaker = { kind: 'agent', id: 'notetaker' } as const;
  const memory = (name: string) => ({ capability: 'memory', name });

  it('names the rule of deploy/local/toolsurface.yaml that hides the memory deletes from agent:notetaker', () => {
    const policy = loadConfigFile(DEFAULT_CONFIG_PATH).admission;
    const rules = hidingRules(policy, notetaker, [memory('delete_entities'), memory('create_entities'), memory('delete_relations')]);
    expect(rules).toEqual([
      {
        id: 'no-memory-deletes',
        text: 'deny for agent:notetaker, capability memory, tools delete_*',
        tools: ['delete_entities', 'delete_relations'],
      },
    ]);
    expect(hidingRules(policy, { kind: 'agent', id: 'researcher' }, [memory('delete_entities')])).toEqual([]);
  });

  it('leaves conditional rules out, and names the default where it denies', () => {
    const policy: AdmissionPolicy = {
      default: 'deny',
      rules: [
        {
          id: 'no-secrets',
          effect: 'deny',
          principals: ['*'],
          capabilities: ['filesystem'],
          tools: ['*'],
          arguments: { path: '*secret*' },
        },
        { id: 'fs', effect: 'allow', principals: ['*'], capabilities: ['filesystem'], tools: ['*'] },
      ],
    };
    const rules = hidingRules(policy, notetaker, [{ capability: 'filesystem', name: 'read_text_file' }, memory('open_nodes')]);
    expect(rules).toEqual([{ id: 'default', text: 'default: deny', tools: ['open_nodes'] }]);
    expect(describeRule(policy.rules[0])).toBe('deny capability filesystem, when path matches *secret*');
  });

  it('gives the reason a config cannot be read', () => {
    expect(loadPolicy('/nonexistent/toolsurface.yaml')).toBeInstanceOf(Error);
  });
});
