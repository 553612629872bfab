import { useEffect, useState } from 'react';
import { ApiFailure, listPrincipals, type PrincipalView } from './api';

/** "36 of 30 → discovery" for adaptive: the count behind adaptive's choice, against the threshold. */
export function boundToolsText(p: PrincipalView): string {
  if (p.configuredMode !== 'adaptive') return String(p.boundToolCount);
  const side = p.boundToolCount >= p.adaptiveThreshold ? 'at or above' : 'below';
  return `${p.boundToolCount} (${side} ${p.adaptiveThreshold}: ${p.resolvedMode})`;
}

/** The Agents or Gateways page: each principal with its configured and resolved mode. */
export function PrincipalList({ kind, onSignedOut }: { kind: 'agent' | 'gateway'; onSignedOut: () => void }) {
  const [list, setList] = useState<PrincipalView[] | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    listPrincipals().then(setList, (e: ApiFailure) => (e.status === 401 ? onSignedOut() : setError(e.message)));
  }, [onSignedOut]);
  const title = kind === 'agent' ? 'Agents' : 'Gateways';
  const shown = (list ?? []).filter((p) => p.kind === kind);
  return (
    <>
      <h1>{title}</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {list && shown.length === 0 && <p>No {kind}s are configured.</p>}
      <ul className="cards" aria-label={title}>
        {shown.map((p) => (
          <li key={p.principal} className="card" data-principal={p.principal}>
            <a href={`#/${p.kind}/${encodeURIComponent(p.id)}`}>{p.principal}</a>
            <dl>
              <dt>Mode</dt>
              <dd data-field="configured">{p.configuredMode}</dd>
              <dt>Resolves to</dt>
              <dd data-field="resolved">{p.resolvedMode}</dd>
              <dt>Bound tools</dt>
              <dd data-field="bound">{boundToolsText(p)}</dd>
              {p.kind === 'gateway' && (
                <>
                  <dt>Autonomy</dt>
                  <dd data-field="autonomy">{p.autonomy}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}
