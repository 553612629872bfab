import { isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/** What `rewriteConfig` changes: the port of each named streamable-http capability's URL. */
export interface ConfigRewrite {
  httpPorts: Record<string, number>;
}

/**
 * Rewrites the YAML of a toolsurface config so that a copy placed in any folder behaves like the
 * original at `configDir`, except for the given URL ports: `${CONFIG_DIR}` in stdio args, env and
 * cwd becomes `configDir`, and each stdio capability gets an absolute `cwd` (relative args keep
 * resolving as before). Comments are kept. Throws an Error when a named capability has no URL.
 */
export function rewriteConfig(yamlText: string, configDir: string, change: ConfigRewrite): string {
  const doc = parseDocument(yamlText);
  if (doc.errors.length > 0) throw new Error(`config is not valid YAML: ${doc.errors[0].message}`);
  const caps = doc.get('capabilities');
  const sub = (v: unknown) => (typeof v === 'string' ? v.split('${CONFIG_DIR}').join(configDir) : v);
  const plain = (node: unknown) => (isScalar(node) ? node.value : node);
  if (isMap(caps)) {
    for (const item of caps.items) {
      const path = ['capabilities', String(plain(item.key))];
      if (doc.getIn([...path, 'transport']) !== 'stdio') continue;
      const args = doc.getIn([...path, 'args']);
      if (isSeq(args)) args.items.forEach((a, i) => doc.setIn([...path, 'args', i], sub(plain(a))));
      const env = doc.getIn([...path, 'env']);
      if (isMap(env)) for (const e of env.items) doc.setIn([...path, 'env', String(plain(e.key))], sub(plain(e.value)));
      const cwdRaw = doc.getIn([...path, 'cwd']);
      const cwd = typeof cwdRaw === 'string' ? (sub(cwdRaw) as string) : configDir;
      doc.setIn([...path, 'cwd'], isAbsolute(cwd) ? cwd : resolve(configDir, cwd));
    }
  }
  for (const [name, port] of Object.entries(change.httpPorts)) {
    const url = doc.getIn(['capabilities', name, 'url']);
    if (typeof url !== 'string') throw new Error(`config has no streamable-http capability "${name}" with a url`);
    const u = new URL(url);
    u.port = String(port);
    doc.setIn(['capabilities', name, 'url'], u.toString());
  }
  return doc.toString({ lineWidth: 0 });
}

/** The port of a named streamable-http capability's URL in the config text, or undefined when it has none. */
export function httpCapabilityPort(yamlText: string, name: string): number | undefined {
  const doc = parseDocument(yamlText);
  const url = doc.getIn(['capabilities', name, 'url']);
  if (doc.getIn(['capabilities', name, 'transport']) !== 'streamable-http' || typeof url !== 'string') return undefined;
  const u = new URL(url);
  return Number(u.port || (u.protocol === 'https:' ? 443 : 80));
}
