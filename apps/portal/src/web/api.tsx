// The portal's JSON API as the pages call it: same origin, the session cookie, and the CSRF token on changes.
import type { ActivityView } from '../activity-types';

/** A principal as GET /api/principals lists it. */
export interface PrincipalView {
  principal: string;
  kind: 'agent' | 'gateway';
  id: string;
  configuredMode: string;
  resolvedMode: string;
  autonomy: string;
  capabilities: string[];
  boundToolCount: number;
  adaptiveThreshold: number;
  inConfig: boolean;
  mcpUrl: string;
}

/** A refusal of the API, with the message it gave. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrf = '';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(method !== 'GET' ? { 'x-csrf-token': csrf } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const data = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new ApiFailure(res.status, data.error ?? `the portal answered ${res.status}`);
  return data;
}

/** Whether a session is open (and its CSRF token, kept for later changes). */
export async function session(): Promise<boolean> {
  const s = await call<{ signedIn: boolean; csrf?: string }>('GET', '/api/session');
  csrf = s.csrf ?? '';
  return s.signedIn;
}

export async function signIn(token: string): Promise<void> {
  const s = await call<{ csrf: string }>('POST', '/api/session', { token });
  csrf = s.csrf;
}

export async function signOut(): Promise<void> {
  await call('DELETE', '/api/session');
  csrf = '';
}

export async function listPrincipals(): Promise<PrincipalView[]> {
  return (await call<{ principals: PrincipalView[] }>('GET', '/api/principals')).principals;
}

export function getPrincipal(kind: string, id: string): Promise<PrincipalView> {
  return call('GET', `/api/principals/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`);
}

export function setPresentation(
  p: PrincipalView,
  change: { mode: string; autonomy?: string; expectedMode: string; expectedAutonomy?: string },
): Promise<PrincipalView> {
  return call('PUT', `/api/principals/${encodeURIComponent(p.kind)}/${encodeURIComponent(p.id)}/presentation`, change);
}

/** What the model would see in each mode if a surface were opened now. */
export interface Preview {
  tokenizer: string;
  boundToolCount: number;
  modes: Array<{ mode: string; toolNames: string[]; tokens: number }>;
  /** Bound tools admission refuses outright, with the refusing rule. */
  hidden: Array<{ capability: string; name: string; rule: string }>;
  /** Names published twice (or reserved) and the names they are shown under. */
  collisions: Array<{ originalName: string; presentedNames: string[]; rule: string }>;
}

export function getPreview(kind: string, id: string): Promise<Preview> {
  return call('GET', `/api/principals/${encodeURIComponent(kind)}/${encodeURIComponent(id)}/preview`);
}

/** A principal's recent calls, newest first, and whether the portal is reading them (status "live"). */
export function getActivity(kind: string, id: string, refusalsOnly: boolean): Promise<ActivityView> {
  return call('GET', `/api/principals/${encodeURIComponent(kind)}/${encodeURIComponent(id)}/activity${refusalsOnly ? '?refusals=1' : ''}`);
}
