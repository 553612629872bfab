import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { Attr } from '@toolsurface/core';

/** The one event stream (docs/DESIGN.md "Services"). */
export const STREAM = 'TOOLSURFACE';

/** Event subjects: `toolsurface.<entity>.<event>.v1`. */
export const Subjects = {
  snapshotCreated: 'toolsurface.snapshot.created.v1',
  surfaceOpened: 'toolsurface.surface.opened.v1',
  surfaceClosed: 'toolsurface.surface.closed.v1',
  presentationChanged: 'toolsurface.presentation.changed.v1',
  toolCalled: 'toolsurface.tool.called.v1',
  catalogChanged: 'toolsurface.catalog.changed.v1',
} as const;

/**
 * JetStream key-value buckets. config: the applied declarative config as one record
 * (`config.document`: capabilities, admission, orchestrators, principals) and the settings and
 * bindings changed through the API (`presentation.<kind>.<id>`, `bindings.<kind>.<id>`), read
 * together through libs/state ConfigView; catalog: tools each capability publishes (key = capability); surfaces: one
 * record per surface (key = surface_id); journal: the journal system tool; mcpSessions: one record
 * per session of dispatch's MCP endpoint (key = session ID), so any replica serves any session.
 */
export const Buckets = {
  config: 'toolsurface_config',
  catalog: 'toolsurface_catalog',
  surfaces: 'toolsurface_surfaces',
  journal: 'toolsurface_journal',
  mcpSessions: 'toolsurface_mcp_sessions',
} as const;

/**
 * The least max age of the MCP sessions bucket, ms: a backstop for when no dispatch replica runs,
 * since the replicas themselves end idle sessions and close their surfaces (MCP_SESSION_IDLE_SECONDS).
 */
export const MCP_SESSION_IDLE_TTL_MS = 3600 * 1000;

/** Object store of snapshots: object name = snapshot_id, content = canonical JSON. */
export const SNAPSHOT_OBJECT_STORE = 'toolsurface_snapshots';

/** Surfaces outlive their own expiry in the bucket by at most this much (bucket max age), ms. */
export const SURFACE_BUCKET_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** Connects to NATS with endless reconnects; `name` shows in server monitoring. */
export async function connectNats(servers: string, name: string, auth: NatsAuth = {}): Promise<NatsConnection> {
  const options: Parameters<typeof connect>[0] = {
    servers: servers.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    noAsyncTraces: true,
  };
  // noAsyncTraces (above): no stack-carrying Error per request on the hot path (every audit publish is a request).
  if (auth.credsFile) options.authenticator = credsAuthenticator(new Uint8Array(readFileSync(auth.credsFile)));
  if (auth.user !== undefined) {
    Object.assign(options, { user: auth.user, pass: auth.pass ?? '' });
    // Replies (KV reads, watch and consumer deliveries) come to `_INBOX_<user>.…`, so a NATS user
    // may be allowed to subscribe to its own inboxes only and never read another service's replies
    // (deploy/k8s/components/nats-auth/nats.conf).
    options.inboxPrefix = inboxPrefixOf(auth.user);
  }
  if (auth.token !== undefined) options.token = auth.token;
  if (auth.tls) options.tls = { ...auth.tls };
  return connect(options);
}

/** The inbox prefix of a NATS user: `_INBOX_` and the user name, other characters than letters, digits, `-` and `_` as `_`. */
export function inboxPrefixOf(user: string): string {
  return `_INBOX_${user.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/**
 * How a service authenticates to NATS, and TLS towards it. NATS is the gateway's trust root (the
 * config bucket holds orchestrators, admission and capability commands): run it with
 * authentication and per-user subject permissions wherever anything but the gateway can reach it.
 */
export interface NatsAuth {
  /** A JWT credentials file (NATS_CREDS_FILE). */
  credsFile?: string;
  /** User and password (NATS_USER, NATS_PASSWORD). */
  user?: string;
  pass?: string;
  /** A token (NATS_TOKEN). */
  token?: string;
  /** TLS towards NATS (NATS_TLS_CA_FILE, NATS_TLS_CERT_FILE, NATS_TLS_KEY_FILE). */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

/**
 * Whether `raw` is a comma-separated list of NATS server URLs as the client takes them: nats://,
 * tls://, ws:// or wss:// URLs, or bare host:port (the client adds nats://).
 */
export function isNatsUrlList(raw: string): boolean {
  return raw.split(',').every((part) => /^((nats|tls|wss?):\/\/)?[^\s/]+(:\d+)?\/?$/.test(part.trim()));
}

/** Reads NatsAuth from the NATS_* variables; throws an Error naming the variable when a pair is incomplete. */
export function envNats(env: NodeJS.ProcessEnv): NatsAuth {
  const auth: NatsAuth = {};
  if (env.NATS_CREDS_FILE) auth.credsFile = env.NATS_CREDS_FILE;
  if (env.NATS_USER) {
    auth.user = env.NATS_USER;
    auth.pass = env.NATS_PASSWORD ?? '';
  } else if (env.NATS_PASSWORD) {
    throw new Error('NATS_PASSWORD needs NATS_USER');
  }
  if (env.NATS_TOKEN) auth.token = env.NATS_TOKEN;
  const tls = {
    caFile: env.NATS_TLS_CA_FILE || undefined,
    certFile: env.NATS_TLS_CERT_FILE || undefined,
    keyFile: env.NATS_TLS_KEY_FILE || undefined,
  };
  if (Boolean(tls.certFile) !== Boolean(tls.keyFile)) throw new Error('NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE must be set together');
  if (tls.caFile || tls.certFile) auth.tls = Object.fromEntries(Object.entries(tls).filter(([, v]) => v)) as NatsAuth['tls'];
  return auth;
}

/**
 * Creates the TOOLSURFACE stream (file storage, 7 days, 2 minutes of de-duplication), or updates
 * it when its subjects, age or de-duplication window differ. An existing stream that already has
 * them is left alone. Under deploy/k8s/components/nats-auth no service may update the stream (its
 * retention holds the audit trail): an update refused for permissions is logged as a warning on
 * `logger` and the service runs with the stream as the operator left it; any other failure throws.
 */
export async function ensureStream(nc: NatsConnection, logger?: Pick<Logger, 'warn'>, opts: JetStreamOptions = {}): Promise<void> {
  return retryJetStream(() => ensureStreamOnce(nc, logger, opts.replicas ?? 1));
}

/** The stream's de-duplication window, ms: a re-send with the same Nats-Msg-Id within it is stored once. */
export const STREAM_DUPLICATE_WINDOW_MS = 120_000;

async function ensureStreamOnce(nc: NatsConnection, logger: Pick<Logger, 'warn'> | undefined, replicas: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: STREAM,
    subjects: ['toolsurface.>'],
    max_age: 7 * 24 * 3600 * 1e9,
    duplicate_window: STREAM_DUPLICATE_WINDOW_MS * 1e6,
    num_replicas: replicas,
  };
  let current;
  try {
    current = (await jsm.streams.info(STREAM)).config;
  } catch {
    try {
      await jsm.streams.add(config);
      return;
    } catch (e) {
      if (!isCreateRace(e)) throw e;
    }
    // another replica added it at this very moment: compare with what it made
    current = (await jsm.streams.info(STREAM)).config;
  }
  const same =
    JSON.stringify(current.subjects) === JSON.stringify(config.subjects) &&
    current.max_age === config.max_age &&
    current.duplicate_window === config.duplicate_window;
  if (same) return;
  try {
    await jsm.streams.update(STREAM, config);
  } catch (e) {
    if (!/permission/i.test((e as Error).message)) throw e;
    logger?.warn(
      { err: e },
      'the TOOLSURFACE stream differs from what this release expects and this NATS user may not update it; running with it as it is',
    );
  }
}

/** When the TOOLSURFACE stream was created (ISO 8601): tells one stream from another of the same name, e.g. after NATS lost its store. */
export async function streamCreated(nc: NatsConnection): Promise<string> {
  return retryJetStream(async () => (await (await jetstreamManager(nc)).streams.info(STREAM)).created);
}

/** Opens (creating where missing, with `replicas` copies) a key-value bucket with history 1. */
export async function openBucket(nc: NatsConnection, name: string, opts: { ttlMs?: number } & JetStreamOptions = {}): Promise<KV> {
  const kvm = new Kvm(nc);
  const replicas = opts.replicas ?? 1;
  return retryJetStream(() => createRacing(() => kvm.create(name, { history: 1, replicas, ...(opts.ttlMs ? { ttl: opts.ttlMs } : {}) })));
}

/** Opens (creating where missing, with `replicas` copies) the snapshot object store. */
export async function openSnapshotStore(nc: NatsConnection, opts: JetStreamOptions = {}): Promise<ObjectStore> {
  return retryJetStream(() => createRacing(() => new Objm(nc).create(SNAPSHOT_OBJECT_STORE, { replicas: opts.replicas ?? 1 })));
}

/**
 * How the stream, buckets and object store are made. `replicas`: copies of each kept by a
 * JetStream cluster (1 on one server, 3 on a 3-node cluster; JETSTREAM_REPLICAS). It applies when
 * one is created: an existing one keeps its count (the operator scales it, `nats stream edit`).
 */
export interface JetStreamOptions {
  replicas?: number;
}

/** JETSTREAM_REPLICAS: 1 to 5, default 1; throws an Error naming the variable. */
export function jetstreamReplicas(env: NodeJS.ProcessEnv): number {
  const raw = env.JETSTREAM_REPLICAS;
  if (raw === undefined || raw === '') return 1;
  // Whole decimal numbers only; nats-server allows 1 to 5 replicas.
  if (!/^[1-5]$/.test(raw)) throw new Error(`JETSTREAM_REPLICAS must be a whole number from 1 to 5, got "${raw}"`);
  return Number(raw);
}

/**
 * Is `e` a JetStream API failure that passes once the cluster has a leader again: the request
 * timed out, nobody answered, or the server said JetStream is not ready (nats-server 2.9 texts).
 */
export function isTransientJetStreamError(e: unknown): boolean {
  const message = (e as Error)?.message ?? '';
  // Timeouts, "no responders", 503 "JetStream system temporarily unavailable", "no suitable peers" during a restart, and a connection mid-reconnect.
  return /timeout|timed out|no responders|503|temporarily unavailable|no suitable peers|jetstream not (enabled|ready)|disconnect|reconnect/i.test(
    message,
  );
}

/** Runs `op` again while it fails with a transient JetStream error, for up to `forMs` (default 60 s), pausing 250 ms to 2 s between tries. */
export async function retryJetStream<T>(op: () => Promise<T>, forMs = 60_000): Promise<T> {
  const until = Date.now() + forMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (e) {
      if (!isTransientJetStreamError(e) || Date.now() >= until) throw e;
    }
    await new Promise((r) => setTimeout(r, Math.min(2000, 250 * 2 ** attempt)));
  }
}

/** Is `e` what nats-server answers the loser of two processes creating the same stream at once (2.9: "subjects overlap with an existing stream")? */
function isCreateRace(e: unknown): boolean {
  return /subjects overlap with an existing stream|stream name already in use/i.test((e as Error)?.message ?? '');
}

/**
 * Runs `create` (which makes a bucket or object store where it is missing, else opens it); when
 * another process made the same one at the same moment and the server refused this one for it,
 * runs it again after a short pause (the stream exists by then, so it opens), up to three times.
 * Replicas of a service starting together on a fresh NATS hit this: about one create in 240 when
 * six run at once.
 */
async function createRacing<T>(create: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await create();
    } catch (e) {
      if (attempt >= 3 || !isCreateRace(e)) throw e;
    }
    await new Promise((r) => setTimeout(r, 10 * (attempt + 1)));
  }
}

const headerSetter = { set: (h: MsgHdrs, k: string, v: string) => h.set(k, v) };
const headerGetter = {
  get: (h: MsgHdrs | undefined, k: string) => h?.get(k) || undefined,
  keys: (h: MsgHdrs | undefined) => (h ? [...h.keys()] : []),
};

/** Publishes protobuf events on the stream with W3C trace context and Nats-Msg-Id headers. */
export class EventPublisher {
  private readonly js: JetStreamClient;
  constructor(
    nc: NatsConnection,
    private readonly tracer: Tracer,
  ) {
    this.js = jetstream(nc);
  }

  /** Publishes `data` on `subject`, de-duplicated by `msgId`; resolves once the stream stored it. */
  async publish(subject: string, data: Uint8Array, msgId: string): Promise<void> {
    const span = this.tracer.startSpan(`send ${subject}`, {
      kind: SpanKind.PRODUCER,
      attributes: {
        [Attr.MESSAGING_SYSTEM_NAME]: 'nats',
        [Attr.MESSAGING_DESTINATION_NAME]: subject,
        [Attr.MESSAGING_OPERATION_TYPE]: 'send',
        [Attr.MESSAGING_MESSAGE_ID]: msgId,
      },
    });
    const h = natsHeaders();
    propagation.inject(trace.setSpan(context.active(), span), h, headerSetter);
    try {
      await this.js.publish(subject, data, { msgID: msgId, headers: h });
    } catch (e) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(e) });
      throw e;
    } finally {
      span.end();
    }
  }
}

/** The trace context carried in a message's headers. */
export function contextFromHeaders(h: MsgHdrs | undefined): Context {
  return propagation.extract(context.active(), h, headerGetter);
}

/** What a JetStream handler decides for a message, on purpose. */
export type Disposition = 'ack' | 'nak' | 'term';

/** A running durable consumer; `stop()` stops fetching and waits for the in-flight message. */
export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * Runs a durable pull consumer `<durable>` on the stream for one subject; each message is handled
 * inside a CONSUMER span continuing the publisher's trace. The handler's disposition is applied;
 * a thrown error naks with a 1 s delay.
 */
export async function runDurableConsumer(
  nc: NatsConnection,
  durable: string,
  subject: string,
  handler: (msg: JsMsg) => Promise<Disposition>,
  deps: { tracer: Tracer; logger: Logger },
): Promise<RunningConsumer> {
  // A service started while the cluster elects a leader (after NATS comes back) gets "JetStream
  // system temporarily unavailable" here: it waits for the leader rather than exiting.
  const consumer = await retryJetStream(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.consumers
      .add(STREAM, {
        durable_name: durable,
        filter_subject: subject,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: 30e9,
        max_deliver: 10,
      })
      // (an existing durable is opened as it is; a transient failure is tried again)
      .catch(async (e: unknown) => {
        if (isTransientJetStreamError(e)) throw e;
        return jsm.consumers.info(STREAM, durable);
      });
    return jetstream(nc).consumers.get(STREAM, durable);
  });
  const messages = await consumer.consume({ max_messages: 64 });
  let inflight: Promise<void> = Promise.resolve();
  const loop = (async () => {
    for await (const m of messages) {
      const parent = contextFromHeaders(m.headers);
      const span = deps.tracer.startSpan(
        `process ${m.subject}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            [Attr.MESSAGING_SYSTEM_NAME]: 'nats',
            [Attr.MESSAGING_DESTINATION_NAME]: m.subject,
            [Attr.MESSAGING_OPERATION_TYPE]: 'process',
          },
        },
        parent,
      );
      inflight = context.with(trace.setSpan(parent, span), async () => {
        try {
          const d = await handler(m);
          if (d === 'ack') m.ack();
          else if (d === 'nak') m.nak(1000);
          else m.term();
        } catch (err) {
          deps.logger.error({ err, subject: m.subject }, 'event handler failed; will redeliver');
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(err) });
          m.nak(1000);
        } finally {
          span.end();
        }
      });
      await inflight;
    }
  })();
  return {
    async stop() {
      await messages.close();
      await inflight;
      await loop.catch(() => undefined);
    },
  };
}
