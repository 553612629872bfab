import { useState, type FormEvent } from 'react';
import { signIn } from './api';

/** The sign-in page: an admin orchestrator's bearer token, checked by the gateway. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError('');
    signIn(token).then(onSignedIn, (err: Error) => setError(err.message));
  };
  return (
    <main>
      <h1>Sign in to the Toolsurface portal</h1>
      <form onSubmit={submit}>
        <p>
          <label htmlFor="token">Admin token</label>
          <br />
          <input id="token" type="password" autoComplete="current-password" value={token} onChange={(e) => setToken(e.target.value)} />
        </p>
        <p>The bearer token of an orchestrator with admin rights in the gateway's config.</p>
        <button type="submit">Sign in</button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
