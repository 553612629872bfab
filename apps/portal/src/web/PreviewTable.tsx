import { useEffect, useState } from 'react';
import { getPreview, type Preview } from './api';

/** What the model would see in each mode: the tool count and token count of each list, with the names on demand. */
export function PreviewTable({ kind, id, version }: { kind: string; id: string; version: number }) {
  const [preview, setPreview] = useState<Preview | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    getPreview(kind, id).then(setPreview, (e: Error) => setError(e.message));
  }, [kind, id, version]);
  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!preview) return <p>Loading the preview…</p>;
  return (
    <section aria-labelledby="preview-heading">
      <h3 id="preview-heading">What the model would see</h3>
      <table className="preview">
        <caption>Tokens counted with {preview.tokenizer}, for a surface opened now</caption>
        <thead>
          <tr>
            <th scope="col">Mode</th>
            <th scope="col">Tools</th>
            <th scope="col">Tokens</th>
          </tr>
        </thead>
        <tbody>
          {preview.modes.map((m) => (
            <tr key={m.mode} data-mode={m.mode}>
              <th scope="row">{m.mode}</th>
              <td>
                <details>
                  <summary>{m.toolNames.length} tools</summary>
                  <span className="names">{m.toolNames.join(', ')}</span>
                </details>
              </td>
              <td data-field="tokens">{m.tokens}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 id="hidden-heading">Hidden from this principal</h3>
      {preview.hidden.length === 0 ? (
        <p>No bound tool is hidden by admission.</p>
      ) : (
        <ul aria-labelledby="hidden-heading" className="hidden-tools">
          {preview.hidden.map((h) => (
            <li key={`${h.capability}/${h.name}`} data-hidden={`${h.capability}/${h.name}`}>
              <code>{h.name}</code> of {h.capability}, by rule <code data-field="rule">{h.rule}</code>
            </li>
          ))}
        </ul>
      )}
      <h3 id="collisions-heading">Name collisions</h3>
      {preview.collisions.length === 0 ? (
        <p>No name is published twice.</p>
      ) : (
        <ul aria-labelledby="collisions-heading">
          {preview.collisions.map((c) => (
            <li key={c.originalName}>
              <code>{c.originalName}</code> is shown as {c.presentedNames.map((n) => `"${n}"`).join(', ')}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
