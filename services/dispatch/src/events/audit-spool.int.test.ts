import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditSpool } from './audit-spool';

// The spool's files on a real disk: what it keeps, what it deletes, and what it takes over.

const bytes = (s: string) => new Uint8Array(Buffer.from(s));
const text = (b: Uint8Array) => Buffer.from(b).toString();

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'toolsurface-spool-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const files = () => readdirSync(root).flatMap((d) => readdirSync(join(root, d)).map((f) => `${d}/${f}`));

describe('AuditSpool', () => {
  it('deletes a segment once every event in it is stored, so the spool does not grow', () => {
    const s = new AuditSpool({ dir: root, fsyncIntervalMs: 0, streamTag: 't', segmentRecords: 10 });
    expect(s.open()).toEqual([]);
    for (let i = 0; i < 100; i++) {
      s.start(`e${i}`, bytes(`fallback ${i}`));
      s.event(`e${i}`, bytes(`event ${i}`));
      s.stored(`e${i}`);
    }
    // owner.json and the segment being written; every full one is gone.
    expect(files().filter((f) => f.endsWith('.log'))).toHaveLength(1);
    s.close();
    expect(readdirSync(root)).toEqual([]);
  });

  it('gives back, on the next open, each unsent call once: its event, or its start record when the call never ended', () => {
    const a = new AuditSpool({ dir: root, fsyncIntervalMs: 0, streamTag: 't', segmentRecords: 3 });
    a.open();
    a.start('ran', bytes('ran: fallback'));
    a.event('ran', bytes('ran: ok'));
    a.start('mid', bytes('mid: fallback'));
    a.event('sent', bytes('sent: ok'));
    a.stored('sent');
    a.close();
    const b = new AuditSpool({ dir: root, fsyncIntervalMs: 0, streamTag: 't' });
    const left = b.open();
    expect(left.map((e) => [e.id, text(e.data)])).toEqual([
      ['ran', 'ran: ok'],
      ['mid', 'mid: fallback'],
    ]);
    // Copied into the new process's log: a third open (after b died) would find them again.
    b.close();
    const c = new AuditSpool({ dir: root, fsyncIntervalMs: 0, streamTag: 't' });
    expect(c.open().map((e) => e.id)).toEqual(['ran', 'mid']);
    c.close();
  });

  it('leaves alone a spool of a live process, of another host, or written for another stream', () => {
    const other = (name: string, owner: object) => {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'owner.json'), JSON.stringify(owner));
      writeFileSync(join(root, name, '00000001.log'), `${JSON.stringify({ t: 'e', id: name, d: 'eA==' })}\n`);
    };
    other('live', { pid: process.ppid, host: hostname(), stream: 't' });
    other('elsewhere', { pid: 999_999_999, host: 'another-host', stream: 't' });
    other('old-stream', { pid: 999_999_999, host: hostname(), stream: 'older' });
    other('dead', { pid: 999_999_999, host: hostname(), stream: 't' });
    const s = new AuditSpool({ dir: root, fsyncIntervalMs: 0, streamTag: 't' });
    expect(s.open().map((e) => e.id)).toEqual(['dead']);
    expect(readdirSync(root).sort()).toEqual(expect.arrayContaining(['elsewhere', 'live', 'old-stream']));
    expect(readdirSync(root)).not.toContain('dead');
    s.close();
  });
});
