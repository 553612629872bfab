import { useEffect, useState, type FormEvent } from 'react';
import { ApiFailure, getPrincipal, setPresentation, type PrincipalView } from './api';
import { boundToolsText } from './PrincipalList';
import { PreviewTable } from './PreviewTable';
import { ActivityTable } from './ActivityTable';

/** The four modes, each with one line on when to use it (docs/DESIGN.md product rules 1-4). */
const MODES: ReadonlyArray<{ mode: string; label: string; hint: string }> = [
  { mode: 'adaptive', label: 'Adaptive', hint: 'Direct below 30 bound tools, discovery from 30 on. The default; right for most agents.' },
  { mode: 'direct', label: 'Direct', hint: 'Every bound tool is listed. For small tool sets the model can read in full.' },
  {
    mode: 'discovery',
    label: 'Discovery',
    hint: 'Three meta-tools: the model searches, reads a schema, then calls. For large tool sets.',
  },
  {
    mode: 'unified',
    label: 'Unified',
    hint: 'One unified_tool that picks and runs the tool for a request. For simple models and clients.',
  },
];

const AUTONOMY: ReadonlyArray<{ value: string; label: string; hint: string }> = [
  { value: 'autonomous', label: 'Autonomous', hint: 'unified_tool runs the tool it picked.' },
  { value: 'supervised', label: 'Supervised', hint: 'unified_tool returns a proposal; the client decides whether to call it.' },
];

const SNAPSHOT_NOTE = 'A change applies to the next surface; open surfaces keep their snapshot.';

/** An agent's Advanced → Tool presentation section, or a gateway's Tool Presentation view. */
export function PrincipalPage({ kind, id, onSignedOut }: { kind: 'agent' | 'gateway'; id: string; onSignedOut: () => void }) {
  const [p, setP] = useState<PrincipalView | undefined>(undefined);
  const [mode, setMode] = useState('');
  const [autonomy, setAutonomy] = useState('');
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [version, setVersion] = useState(0);
  const fail = (e: ApiFailure) => (e.status === 401 ? onSignedOut() : setError(e.message));
  useEffect(() => {
    getPrincipal(kind, id).then((x) => {
      setP(x);
      setMode(x.configuredMode);
      setAutonomy(x.autonomy);
    }, fail);
  }, [kind, id]);
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!p) return;
    setError('');
    setSaved('');
    setPresentation(p, {
      mode,
      ...(kind === 'gateway' ? { autonomy, expectedAutonomy: p.autonomy } : {}),
      expectedMode: p.configuredMode,
    }).then((x) => {
      setP(x);
      setVersion((v) => v + 1);
      setSaved(`Saved: ${x.principal} is now ${x.configuredMode} (resolves to ${x.resolvedMode}). ${SNAPSHOT_NOTE}`);
    }, fail);
  };
  const title = kind === 'agent' ? `Agent ${id}` : `Gateway ${id}`;
  const form = p && (
    <form onSubmit={save} aria-labelledby="presentation-heading">
      <fieldset>
        <legend>Mode</legend>
        {MODES.map((m) => (
          <div className="choice" key={m.mode}>
            <input
              type="radio"
              id={`mode-${m.mode}`}
              name="mode"
              value={m.mode}
              checked={mode === m.mode}
              onChange={() => setMode(m.mode)}
              aria-describedby={`mode-${m.mode}-hint`}
            />
            <label htmlFor={`mode-${m.mode}`}>{m.label}</label>
            <span className="hint" id={`mode-${m.mode}-hint`}>
              {m.hint}
            </span>
          </div>
        ))}
      </fieldset>
      {kind === 'gateway' && (
        <fieldset>
          <legend>Autonomy</legend>
          {AUTONOMY.map((a) => (
            <div className="choice" key={a.value}>
              <input
                type="radio"
                id={`autonomy-${a.value}`}
                name="autonomy"
                value={a.value}
                checked={autonomy === a.value}
                onChange={() => setAutonomy(a.value)}
                aria-describedby={`autonomy-${a.value}-hint`}
              />
              <label htmlFor={`autonomy-${a.value}`}>{a.label}</label>
              <span className="hint" id={`autonomy-${a.value}-hint`}>
                {a.hint}
              </span>
            </div>
          ))}
        </fieldset>
      )}
      <p>{SNAPSHOT_NOTE}</p>
      <button type="submit">Save</button>
    </form>
  );
  return (
    <>
      <p>
        <a href={kind === 'agent' ? '#/agents' : '#/gateways'}>← {kind === 'agent' ? 'Agents' : 'Gateways'}</a>
      </p>
      <h1>{title}</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p role="status" className="ok">
        {saved}
      </p>
      {p && (
        <dl className="card">
          <dt>Mode</dt>
          <dd data-field="configured">{p.configuredMode}</dd>
          <dt>Resolves to now</dt>
          <dd data-field="resolved">{p.resolvedMode}</dd>
          <dt>Bound tools</dt>
          <dd>{boundToolsText(p)}</dd>
          <dt>Capabilities</dt>
          <dd>{p.capabilities.join(', ') || 'none'}</dd>
          {kind === 'gateway' && (
            <>
              <dt>Autonomy</dt>
              <dd data-field="autonomy">{p.autonomy}</dd>
              <dt>MCP endpoint</dt>
              <dd>{p.mcpUrl ? <code data-field="mcp-url">{p.mcpUrl}</code> : 'not configured (set MCP_PUBLIC_URL or MCP_PORT)'}</dd>
            </>
          )}
        </dl>
      )}
      {kind === 'agent' ? (
        <details open>
          <summary>Advanced</summary>
          <h2 id="presentation-heading">Tool presentation</h2>
          {form}
          <PreviewTable kind={kind} id={id} version={version} />
        </details>
      ) : (
        <section>
          <h2 id="presentation-heading">Tool Presentation</h2>
          {form}
          <PreviewTable kind={kind} id={id} version={version} />
        </section>
      )}
      <ActivityTable kind={kind} id={id} />
    </>
  );
}
