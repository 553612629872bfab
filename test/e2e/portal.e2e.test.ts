import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortal, type Portal } from '@toolsurface/portal';
import { PresentationMode, ResolvedMode } from '@toolsurface/proto';
import { findFreePort } from '@toolsurface/devkit';
import { Clients, principalOf, startGateway, unaryCall, type GatewayFixture } from '../support';

// The portal in Debian's headless Chromium (driven by playwright-core; no browser is downloaded)
// against the whole gateway with real MCP servers: sign-in, the lists, a mode changed with the
// keyboard only, recent activity from the tool.called events, and the refusals (bad input, no
// CSRF token, foreign Origin or Host).

const OPS = 'ops-token-0123456789';
const TEAM_A = 'team-a-token-0123456789';
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'apps', 'portal', 'docs', 'screenshots');

let g: GatewayFixture;
let ops: Clients;
let portal: Portal;
let browser: BrowserContext;
let page: Page;
let dir: string;
/** For conditions that wait on NATS or another process: generous, as the machine may be loaded. */
const POLL = { timeout: 30_000 };
const ACTIVITY = { nats: {}, perPrincipal: 50, principals: 100, replay: 1000 };

/** Another portal on the suite's web build, reading activity from `natsUrl`; the caller stops it. */
async function otherPortal(natsUrl: string): Promise<Portal> {
  const p = createPortal({
    host: '127.0.0.1',
    port: 0,
    resolver: g.stack.addresses.resolver,
    allowedHosts: [],
    mcpPublicUrl: '',
    sessionTtlSeconds: 3600,
    webDist: join(dir, 'web'),
    activity: { ...ACTIVITY, natsUrl },
  });
  await p.start();
  return p;
}

/** Signs in to portal `p` over raw HTTP; resolves to its Cookie header. */
async function rawSignIn(p: Portal): Promise<string> {
  const host = `127.0.0.1:${p.port()}`;
  const headers = { host, origin: `http://${host}`, 'content-type': 'application/json' };
  const r = await raw('POST', '/api/session', headers, JSON.stringify({ token: OPS }), p.port());
  expect(r.status, r.body).toBe(200);
  return r.setCookie.map((c) => c.split(';')[0]).join('; ');
}

/** GET /api/principals/<kind>/<id>/activity of portal `p`. */
async function activityOf(p: Portal, cookie: string, principal: string): Promise<{ status: string; message: string; calls: unknown[] }> {
  const path = `/api/principals/${principal.replace(':', '/')}/activity`;
  const r = await raw('GET', path, { host: `127.0.0.1:${p.port()}`, cookie }, '', p.port());
  expect(r.status, r.body).toBe(200);
  return JSON.parse(r.body) as { status: string; message: string; calls: unknown[] };
}

/** A raw HTTP request to the portal (or another) with the given headers (fetch cannot set Host). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
  port = portal.port(),
): Promise<{ status: number; body: string; setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, setCookie: res.headers['set-cookie'] ?? [] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The stored mode of a principal, read from surface-resolver over gRPC. */
async function storedMode(principal: string): Promise<PresentationMode> {
  const r = await unaryCall<{ presentation: { mode: PresentationMode } }>(ops.presentation, 'getPresentation', {
    principal: principalOf(principal),
  });
  return r.presentation.mode;
}

/** A call of the portal's API from inside the signed-in page (its cookie), with or without the session's CSRF token. */
function apiFromPage(method: string, path: string, body: unknown, withCsrf = true): Promise<{ status: number; error?: string }> {
  return page.evaluate(
    async ({ method, path, body, withCsrf }) => {
      const s = (await (await fetch('/api/session')).json()) as { csrf?: string };
      const res = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', ...(withCsrf ? { 'x-csrf-token': s.csrf ?? '' } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, ...((await res.json()) as { error?: string }) };
    },
    { method, path, body, withCsrf },
  );
}

async function signIn(token: string): Promise<void> {
  await page.goto(`${portal.url()}/#/agents`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function seriousViolations(): Promise<string[]> {
  await page.evaluate(axe.source);
  const ids = await page.evaluate(async () => {
    const r = await (globalThis as unknown as { axe: typeof axe }).axe.run();
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  });
  return ids;
}

beforeAll(async () => {
  g = await startGateway(join(import.meta.dirname, '..', 'fixtures', 'portal.yaml'), ['everything', 'filesystem', 'memory']);
  ops = new Clients(g.stack.addresses, OPS);
  dir = mkdtempSync(join(tmpdir(), 'toolsurface-portal-'));
  // The web app is built into the suite's own folder on start, as a clean clone would build it.
  portal = createPortal({
    host: '127.0.0.1',
    port: 0,
    resolver: g.stack.addresses.resolver,
    allowedHosts: [],
    mcpPublicUrl: 'http://127.0.0.1:3100',
    sessionTtlSeconds: 3600,
    webDist: join(dir, 'web'),
    activity: { ...ACTIVITY, natsUrl: g.nats.url },
  });
  await portal.start();
  browser = await chromium.launchPersistentContext(join(dir, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.setDefaultTimeout(30_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
  ops?.close();
  await g?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

// Generous: the machine may be loaded many times over; no speed is asserted here.
describe('the portal in Chromium', { timeout: 120_000 }, () => {
  it('without a credential shows the sign-in page, and a wrong or non-admin token is refused there', async () => {
    await page.goto(`${portal.url()}/#/agents`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the Toolsurface portal');
    expect((await raw('GET', '/api/principals', { host: `127.0.0.1:${portal.port()}` })).status).toBe(401);
    await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-390.png'), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await signIn('not-a-token-of-anyone');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not an admin orchestrator token');
    await signIn(TEAM_A);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not an admin orchestrator token');
  });

  it('signed in, lists agents with their configured and resolved modes and bound tools against 30', async () => {
    await signIn(OPS);
    const researcher = page.locator('[data-principal="agent:researcher"]');
    await expect.poll(() => researcher.locator('[data-field="resolved"]').textContent()).toBe('discovery');
    expect(await researcher.locator('[data-field="configured"]').textContent()).toBe('adaptive');
    expect(await researcher.locator('[data-field="bound"]').textContent()).toMatch(/^\d+ \(at or above 30: discovery\)$/);
    const notetaker = page.locator('[data-principal="agent:notetaker"]');
    expect(await notetaker.locator('[data-field="resolved"]').textContent()).toBe('direct');
    expect(await notetaker.locator('[data-field="bound"]').textContent()).toBe('9 (below 30: direct)');
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'agents-1280.png') });
  });

  it("previews each mode's tools and tokens, with the tokenizer named, equal to what the CLI prints", async () => {
    // `toolsurface open` prints the surface's presented_tokens: the figure the preview must match.
    const surface = await ops.open('agent:researcher');
    expect(surface.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DISCOVERY);
    await page.goto(`${portal.url()}/#/agent/researcher`);
    const discovery = page.locator('tr[data-mode="discovery"] [data-field="tokens"]');
    await expect.poll(() => discovery.textContent()).toBe(String(surface.presentedTokens));
    expect(await page.locator('table.preview caption').textContent()).toContain('o200k_base');
    const direct = Number(await page.locator('tr[data-mode="direct"] [data-field="tokens"]').textContent());
    expect(direct).toBeGreaterThan(surface.presentedTokens);
    expect(await page.locator('tr[data-mode="unified"] summary').textContent()).toMatch(/^\d+ tools$/);
    // The tool a deny rule refuses outright is listed as hidden, with its rule, and in no mode's list.
    const hidden = page.locator('[data-hidden="filesystem/write_file"]');
    expect(await hidden.locator('[data-field="rule"]').textContent()).toBe('no-writes-for-researcher');
    expect(await page.locator('tr[data-mode="direct"] .names').textContent()).not.toMatch(/\bwrite_file\b/);
  });

  it("lists a principal's recent calls with outcome, reason and rule, and its refusals alone with the filter", async () => {
    const surface = await ops.open('agent:researcher');
    const ok = await ops.call(surface.surfaceId, 'execute_tool', { name: 'echo', arguments: { message: 'hi' } });
    expect(ok.isError, ok.message).toBe(false);
    // write_file is hidden from the researcher by a deny rule: refused, and the event names the rule.
    const refused = await ops.call(surface.surfaceId, 'execute_tool', { name: 'write_file', arguments: { path: 'x.txt', content: 'y' } });
    expect(refused.isError).toBe(true);
    await page.goto(`${portal.url()}/#/agent/researcher`);
    const rows = page.locator('table.activity-table tbody tr');
    // The list is read again every 10 s; Refresh reads it now.
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return rows.count();
      }, POLL)
      .toBe(2);
    const [newest, older] = [rows.nth(0), rows.nth(1)];
    expect(await newest.getAttribute('data-outcome')).toBe('refused');
    expect(await newest.locator('[data-field="tool"] code').textContent()).toBe('write_file');
    expect(await newest.locator('[data-field="via"]').textContent()).toBe('execute_tool');
    expect(await newest.locator('[data-field="outcome"]').textContent()).toContain('refused');
    expect(await newest.locator('[data-field="reason"]').textContent()).toBe(refused.reason);
    expect(await newest.locator('[data-field="rule"]').textContent()).toBe('no-writes-for-researcher');
    expect(await older.getAttribute('data-outcome')).toBe('ok');
    expect(await older.locator('[data-field="tool"] code').textContent()).toBe('echo');
    expect(await older.locator('[data-field="duration"]').textContent()).toMatch(/^\d+(\.\d)? ms$/);
    expect(await page.locator('[data-field="refusal-count"]').textContent()).toBe('1 of 2 listed calls were refused');
    expect(await page.getByRole('table', { name: /tool calls of agent:researcher/ }).count()).toBe(1);
    // The filter, with the keyboard: Space on the focused checkbox.
    await page.getByLabel('Refusals only').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(await rows.nth(0).getAttribute('data-outcome')).toBe('refused');
    expect(await page.locator('table.activity-table caption').textContent()).toContain('1 refused tool call of agent:researcher');
    // Another principal's page lists none of these.
    await page.goto(`${portal.url()}/#/agent/notetaker`);
    await expect
      .poll(() => page.locator('[data-field="activity-empty"]').textContent(), POLL)
      .toBe('No tool call of agent:notetaker seen yet.');
    await page.goto(`${portal.url()}/#/agent/researcher`);
    await expect.poll(() => rows.count(), POLL).toBe(2);
    expect(await seriousViolations()).toEqual([]);
    await page.locator('section.activity').screenshot({ path: join(SCREENSHOTS, 'activity-1280.png') });
    // A portal started after the calls reads them from the stream's recent window.
    const late = await otherPortal(g.nats.url);
    try {
      const cookie = await rawSignIn(late);
      await expect.poll(async () => (await activityOf(late, cookie, 'agent:researcher')).calls.length, POLL).toBe(2);
      expect((await activityOf(late, cookie, 'agent:researcher')).status).toBe('live');
    } finally {
      await late.stop();
    }
  });

  it('keeps working without NATS, and says recent activity is unavailable', async () => {
    const down = await otherPortal(`nats://127.0.0.1:${await findFreePort()}`);
    try {
      const cookie = await rawSignIn(down);
      await expect.poll(async () => (await activityOf(down, cookie, 'agent:notetaker')).status, POLL).toBe('unavailable');
      // The rest of the portal answers: another host name than the suite's portal, so its session cookie is its own.
      const other = await browser.newPage();
      try {
        await other.goto(`http://localhost:${down.port()}/#/agent/notetaker`);
        await other.getByLabel('Admin token').fill(OPS);
        await other.getByRole('button', { name: 'Sign in' }).click();
        await expect.poll(() => other.locator('[data-field="configured"]').textContent(), POLL).toBe('adaptive');
        const status = other.locator('[data-field="activity-status"]');
        await expect.poll(() => status.textContent(), POLL).toContain('Recent activity is unavailable');
        expect(await status.textContent()).toContain(`cannot read tool calls from NATS at nats://127.0.0.1:`);
      } finally {
        await other.close();
      }
    } finally {
      await down.stop();
    }
  });

  it('the gateways page and view show autonomy and the MCP endpoint URL; set to supervised, unified_tool proposes and runs nothing', async () => {
    await page.goto(`${portal.url()}/#/gateways`);
    const partner = page.locator('[data-principal="gateway:partner"]');
    await expect.poll(() => partner.locator('[data-field="autonomy"]').textContent()).toBe('autonomous');
    await page.goto(`${portal.url()}/#/gateway/partner`);
    await expect.poll(() => page.locator('[data-field="mcp-url"]').textContent()).toBe('http://127.0.0.1:3100/mcp/gateway/partner');
    expect(await page.getByRole('radio', { name: 'Autonomous' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Supervised' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('[data-field="autonomy"]').textContent()).toBe('supervised');
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'gateway-1280.png') });
    const s = await ops.open('gateway:partner');
    const r = await ops.call(s.surfaceId, 'unified_tool', { request: 'What is the sum of a=17 and b=25?' });
    expect(r.isError, r.message).toBe(false);
    expect(r.unified!.executed).toBe(false);
    expect(r.unified!.tool).toBe('get-sum');
    await page.goto(`${portal.url()}/#/gateways`);
    await expect.poll(() => partner.locator('[data-field="autonomy"]').textContent()).toBe('supervised');
    await page.screenshot({ path: join(SCREENSHOTS, 'gateways-1280.png') });
  });

  it("changes an agent's mode with the keyboard only: the next surface uses it, an open one keeps its snapshot", async () => {
    const before = await ops.open('agent:notetaker');
    expect(before.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DIRECT);
    await page.goto(`${portal.url()}/#/agent/notetaker`);
    await expect.poll(() => page.getByRole('radio', { name: 'Adaptive' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByText('open surfaces keep their snapshot').count()).toBeGreaterThan(0);
    // Tab into the radio group (its checked radio takes the focus), arrow to Unified, Tab to Save, Enter.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      // (page.evaluate text runs in the page, where document exists)
      if ((await page.evaluate('document.activeElement?.name')) === 'mode') break;
    }
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: 'Unified' }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Save');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('agent:notetaker is now unified');
    expect(await storedMode('agent:notetaker')).toBe(PresentationMode.PRESENTATION_MODE_UNIFIED);
    expect((await ops.open('agent:notetaker')).resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_UNIFIED);
    const kept = await unaryCall<{ surface: { resolvedMode: ResolvedMode } }>(ops.surface, 'getSurface', { surfaceId: before.surfaceId });
    expect(kept.surface.resolvedMode).toBe(ResolvedMode.RESOLVED_MODE_DIRECT);
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'agent-1280.png') });
  });

  it('is usable 390 px wide: no horizontal scrolling, the controls in view', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [hash, shot] of [
        ['#/agents', 'agents-390.png'],
        ['#/gateways', 'gateways-390.png'],
        ['#/agent/researcher', 'agent-390.png'],
        ['#/gateway/partner', 'gateway-390.png'],
      ]) {
        await page.goto(`${portal.url()}/${hash}`);
        await page.waitForSelector('h1');
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate('document.documentElement.scrollWidth'), hash).toBeLessThanOrEqual(390);
        if (hash.startsWith('#/agent/') || hash.startsWith('#/gateway/')) {
          const save = await page.getByRole('button', { name: 'Save' }).boundingBox();
          expect(save && save.x + save.width, hash).toBeLessThanOrEqual(390);
        }
        await page.screenshot({ path: join(SCREENSHOTS, shot), fullPage: true });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('bad input gets a clear message and changes nothing', async () => {
    const before = await storedMode('agent:researcher');
    const cases: Array<[string, string, unknown, number, string, boolean?]> = [
      ['PUT', '/api/principals/agent/researcher/presentation', { mode: 'fast' }, 400, 'mode "fast" is not one of'],
      ['PUT', '/api/principals/agent/researcher/presentation', { mode: 'unified', autonomy: 'supervised' }, 400, 'only gateways'],
      ['PUT', '/api/principals/agent/nobody/presentation', { mode: 'direct' }, 404, 'agent:nobody does not exist'],
      [
        'PUT',
        '/api/principals/agent/researcher/presentation',
        { mode: 'direct', expectedMode: 'unified' },
        409,
        'since this page was loaded',
      ],
      ['PUT', '/api/principals/agent/researcher/presentation', { mode: 'direct' }, 403, 'CSRF token', false],
    ];
    for (const [method, path, body, status, message, withCsrf] of cases) {
      const r = await apiFromPage(method, path, body, withCsrf ?? true);
      expect({ status: r.status, error: r.error?.includes(message) }, JSON.stringify(body)).toEqual({ status, error: true });
    }
    expect(await storedMode('agent:researcher')).toBe(before);
    // SetPresentation would have created it: the portal refused before calling it.
    const listed = await unaryCall<{ principals: Array<{ principal: { id: string } }> }>(ops.presentation, 'listPrincipals', { kind: 0 });
    expect(listed.principals.map((p) => p.principal.id)).not.toContain('nobody');
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, and changes nothing', async () => {
    const before = await storedMode('agent:researcher');
    const host = `127.0.0.1:${portal.port()}`;
    const cookie = (await browser.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const session = JSON.parse((await raw('GET', '/api/session', { host, cookie })).body) as { csrf: string };
    const change = JSON.stringify({ mode: 'direct' });
    const headers = { cookie, 'content-type': 'application/json', 'x-csrf-token': session.csrf };
    const path = '/api/principals/agent/researcher/presentation';
    const rebound = await raw('GET', '/', { host: 'attacker.example:80' });
    expect(rebound.status).toBe(421);
    expect((await raw('PUT', path, { ...headers, host: 'attacker.example', origin: 'http://attacker.example' }, change)).status).toBe(421);
    const foreign = await raw('PUT', path, { ...headers, host, origin: 'http://attacker.example' }, change);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error).toContain('only this portal');
    expect((await raw('PUT', path, { ...headers, host }, change)).status).toBe(403);
    expect(await storedMode('agent:researcher')).toBe(before);
    // The same request from the portal's own origin goes through: the refusals above were for the Host and Origin.
    expect((await raw('PUT', path, { ...headers, host, origin: `http://${host}` }, change)).status).toBe(200);
    expect(await storedMode('agent:researcher')).toBe(PresentationMode.PRESENTATION_MODE_DIRECT);
  });

  it('sets the session cookie HttpOnly and SameSite=Strict, and signing out ends the session', async () => {
    const c = (await browser.cookies()).find((x) => x.name === 'ts_portal_session');
    expect(c).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false });
    await page.goto(`${portal.url()}/#/agents`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to the Toolsurface portal');
    const cookie = `ts_portal_session=${c!.value}`;
    expect((await raw('GET', '/api/principals', { host: `127.0.0.1:${portal.port()}`, cookie })).status).toBe(401);
  });
});
