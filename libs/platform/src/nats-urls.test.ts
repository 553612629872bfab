import { describe, expect, it } from 'vitest';
import { isNatsUrlList } from './nats';

// NATS_URL of dispatch and the portal: a typo must stop the process at start, not hang it.
describe('isNatsUrlList', () => {
  it('takes the URL forms the NATS client takes, one or several', () => {
    for (const ok of ['nats://127.0.0.1:4222', 'tls://nats.example:4222', 'wss://h/', 'h:4222', 'nats://a:1, nats://b:2'])
      expect(isNatsUrlList(ok), ok).toBe(true);
  });

  it('refuses other schemes, paths, spaces inside a URL and empty parts', () => {
    for (const bad of ['http://h:4222', 'nats://h:4222/x', 'nats://h 1:4222', 'nats://a:1,,nats://b:2', ''])
      expect(isNatsUrlList(bad), bad).toBe(false);
  });
});
