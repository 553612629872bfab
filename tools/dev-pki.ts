/**
 * Makes a throwaway PKI for trying TLS on one machine: a CA, a `service` certificate for
 * 127.0.0.1 and localhost (also usable as a client certificate), and an `orchestrator` client
 * certificate, valid for 2 days. docs/security.md shows how npm start, the CLI and the demo use them.
 *
 *   npx tsx tools/dev-pki.ts [DIR]    # default: pki (git-ignored)
 */
import { resolve } from 'node:path';
import { writeTestCertificates } from '@toolsurface/devkit';

const args = process.argv.slice(2);
if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
  console.error('usage: npx tsx tools/dev-pki.ts [DIR]   (writes ca, service and orchestrator .pem and .key files to DIR, default pki)');
  process.exit(2);
}
const dir = resolve(args[0] ?? 'pki');
const files = writeTestCertificates(dir);
console.log(`wrote a throwaway PKI to ${dir} (valid for 2 days; needs openssl):`);
for (const [what, path] of Object.entries(files)) console.log(`  ${what.padEnd(14)} ${path}`);
