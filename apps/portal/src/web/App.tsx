import { useCallback, useEffect, useState } from 'react';
import { session, signOut } from './api';
import { PrincipalList } from './PrincipalList';
import { PrincipalPage } from './PrincipalPage';
import { SignIn } from './SignIn';

/** The page the hash names: #/agents, #/gateways, #/agent/<id>, #/gateway/<id>. */
type Route = { page: 'list'; kind: 'agent' | 'gateway' } | { page: 'principal'; kind: 'agent' | 'gateway'; id: string };

function routeOf(hash: string): Route {
  // "#/agent/<id>" or "#/gateway/<id>": one principal; anything else is a list.
  const m = /^#\/(agent|gateway)\/(.+)$/.exec(hash);
  if (m) return { page: 'principal', kind: m[1] as 'agent' | 'gateway', id: decodeURIComponent(m[2]) };
  return { page: 'list', kind: hash === '#/gateways' ? 'gateway' : 'agent' };
}

export function App() {
  const [signedIn, setSignedIn] = useState<boolean | undefined>(undefined);
  const [route, setRoute] = useState<Route>(routeOf(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', onHash);
    session().then(setSignedIn, () => setSignedIn(false));
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const out = useCallback(() => {
    signOut().finally(() => setSignedIn(false));
  }, []);
  if (signedIn === undefined) return <main aria-busy="true">Loading…</main>;
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  return (
    <>
      <header>
        <strong>Toolsurface portal</strong>
        <nav aria-label="Principals">
          <a href="#/agents" aria-current={route.page === 'list' && route.kind === 'agent' ? 'page' : undefined}>
            Agents
          </a>
          <a href="#/gateways" aria-current={route.page === 'list' && route.kind === 'gateway' ? 'page' : undefined}>
            Gateways
          </a>
        </nav>
        <button type="button" onClick={out}>
          Sign out
        </button>
      </header>
      <main>
        {route.page === 'list' ? (
          <PrincipalList kind={route.kind} onSignedOut={() => setSignedIn(false)} />
        ) : (
          <PrincipalPage key={`${route.kind}:${route.id}`} kind={route.kind} id={route.id} onSignedOut={() => setSignedIn(false)} />
        )}
      </main>
    </>
  );
}
