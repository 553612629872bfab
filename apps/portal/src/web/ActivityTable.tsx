import { useEffect, useState } from 'react';
import type { ActivityEntry, ActivityView } from '../activity-types';
import { getActivity } from './api';

/** How often the list is read again while the page is open, ms. */
const REFRESH_MS = 10_000;

const STATUS_TEXT: Record<ActivityView['status'], string> = {
  connecting: 'Recent activity is unavailable for now: the portal is connecting to NATS.',
  replaying: 'Reading the recent tool calls; the list may be incomplete for a moment.',
  live: '',
  unavailable: 'Recent activity is unavailable: the portal cannot read tool calls from NATS.',
  off: 'Recent activity is off: the portal has no NATS connection configured.',
};

/** The columns; their widths are fixed shares (portal.css), so a long name wraps in its own column. */
const COLUMNS = ['time', 'tool', 'via', 'outcome', 'reason', 'rule', 'duration'];

const when = (ms: number): string => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/** The time of a call, or a dash when it is unknown: an invalid Date would throw and blank the whole page. */
function Time({ ms }: { ms: number }) {
  const d = new Date(ms);
  return ms > 0 && Number.isFinite(d.getTime()) ? <time dateTime={d.toISOString()}>{when(ms)}</time> : <>—</>;
}

function Row({ c }: { c: ActivityEntry }) {
  const refused = c.outcome === 'refused';
  return (
    <tr data-seq={c.seq} data-outcome={c.outcome} className={refused ? 'refused' : undefined}>
      <td data-label="Time">
        <Time ms={c.atMs} />
      </td>
      <th scope="row" data-label="Tool" data-field="tool">
        <span>
          <code>{c.tool}</code>
          {c.calledName && c.calledName !== c.tool && c.calledName !== c.via && <span className="hint"> (called as {c.calledName})</span>}
        </span>
      </th>
      <td data-label="Via" data-field="via">
        {c.via || '—'}
      </td>
      <td data-label="Outcome" data-field="outcome">
        {/* A bold, boxed word and a bar on the row, not a colour alone, mark a refusal. */}
        {refused ? <strong className="refused-mark">refused</strong> : c.outcome}
      </td>
      <td data-label="Reason" data-field="reason">
        {c.reason ? <code>{c.reason}</code> : '—'}
      </td>
      <td data-label="Rule" data-field="rule">
        {c.rule ? <code>{c.rule}</code> : '—'}
      </td>
      <td data-label="Duration" data-field="duration">
        {c.durationMs} ms
      </td>
    </tr>
  );
}

/** A principal's last tool calls from the `tool.called` events, with a filter for its refusals. */
export function ActivityTable({ kind, id }: { kind: string; id: string }) {
  const [refusalsOnly, setRefusalsOnly] = useState(false);
  const [activity, setActivity] = useState<ActivityView | undefined>(undefined);
  const [error, setError] = useState('');
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let current = true;
    getActivity(kind, id, refusalsOnly).then(
      (a) => {
        if (!current) return;
        setActivity(a);
        setError('');
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [kind, id, refusalsOnly, reads]);
  useEffect(() => {
    const t = setInterval(() => setReads((n) => n + 1), REFRESH_MS);
    return () => clearInterval(t);
  }, []);
  const principal = `${kind}:${id}`;
  const refusals =
    activity && !activity.refusalsOnly && activity.calls.length > 0
      ? activity.calls.filter((c) => c.outcome === 'refused').length
      : undefined;
  return (
    <section aria-labelledby="activity-heading" className="activity">
      <h2 id="activity-heading">Recent activity</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {activity && activity.status !== 'live' && (
        <p className={activity.status === 'replaying' ? 'note' : 'error'} data-field="activity-status">
          {STATUS_TEXT[activity.status]} {activity.message}
        </p>
      )}
      <div className="activity-controls">
        <div className="check">
          <input type="checkbox" id="refusals-only" checked={refusalsOnly} onChange={(e) => setRefusalsOnly(e.target.checked)} />
          <label htmlFor="refusals-only">Refusals only</label>
        </div>
        <button type="button" onClick={() => setReads((n) => n + 1)}>
          Refresh
        </button>
        {refusals !== undefined && (
          <span data-field="refusal-count">
            {refusals} of {activity!.calls.length} listed {activity!.calls.length === 1 ? 'call was' : 'calls were'} refused
          </span>
        )}
      </div>
      {activity && activity.calls.length === 0 ? (
        <p data-field="activity-empty">
          {refusalsOnly ? `No refusal of ${principal} among its recent calls.` : `No tool call of ${principal} seen yet.`}
        </p>
      ) : (
        activity && (
          <table className="activity-table">
            <caption>
              {activity.calls.length} {refusalsOnly ? 'refused ' : ''}tool call{activity.calls.length === 1 ? '' : 's'} of {principal},
              newest first (the portal keeps the last {activity.bounds.perPrincipal} of each principal)
            </caption>
            <colgroup>
              {COLUMNS.map((name) => (
                <col key={name} className={`col-${name}`} />
              ))}
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Tool</th>
                <th scope="col">Via</th>
                <th scope="col">Outcome</th>
                <th scope="col">Reason</th>
                <th scope="col">Rule</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {activity.calls.map((c) => (
                <Row key={c.seq} c={c} />
              ))}
            </tbody>
          </table>
        )
      )}
    </section>
  );
}
