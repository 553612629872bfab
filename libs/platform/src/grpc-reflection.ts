import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';

/** Folder of our protos inside proto/ (package toolsurface.v1). */
const PROTO_PACKAGE_DIR = join('toolsurface', 'v1');

/**
 * The repository's proto/ folder: the first `proto` holding toolsurface/v1 found walking up from
 * this module (source tree, compiled output or image, which copies proto/ beside the code), else
 * from the working directory. The .proto files are what `buf generate` reads, so reflection always
 * describes the messages the generated code (checked by `npm run proto:check`) speaks.
 */
export function protoRoot(): string {
  for (const start of [dirname(fileURLToPath(import.meta.url)), process.cwd()]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'proto', PROTO_PACKAGE_DIR))) return join(dir, 'proto');
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`no proto/${PROTO_PACKAGE_DIR} folder above ${fileURLToPath(import.meta.url)} or ${process.cwd()}`);
}

let cached: PackageDefinition | undefined;

/** The standard health service's name, served by every server beside ours. */
const HEALTH_SERVICE = 'grpc.health.v1.Health';

/** The folder holding grpc-health-check's health/v1/health.proto (the proto its HealthImplementation serves). */
function healthProtoRoot(): string {
  // The package's main is build/src/health.js; its protos sit in proto/ at the package root.
  return join(dirname(createRequire(import.meta.url).resolve('grpc-health-check')), '..', '..', 'proto');
}

/**
 * Every toolsurface.v1 proto, plus grpc.health.v1, loaded with proto-loader (once per process;
 * throws when proto/ is missing).
 */
export function toolsurfaceProtos(): PackageDefinition {
  if (cached) return cached;
  const root = protoRoot();
  const files = readdirSync(join(root, PROTO_PACKAGE_DIR))
    .filter((f) => f.endsWith('.proto'))
    .sort()
    .map((f) => join(PROTO_PACKAGE_DIR, f));
  cached = loadSync([...files, join('health', 'v1', 'health.proto')], {
    includeDirs: [root, healthProtoRoot()],
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: false,
    oneofs: true,
  });
  return cached;
}

/**
 * Adds the gRPC server reflection service (v1 and v1alpha, as @grpc/reflection serves them) to
 * `server`, describing the named services (fully qualified, e.g. `toolsurface.v1.SurfaceService`)
 * and every message they use, and the standard health service, so grpcurl-style tools can list
 * and call them.
 */
export function addReflection(server: Pick<Server, 'addService'>, services: readonly string[]): void {
  new ReflectionService(toolsurfaceProtos(), { services: [...services, HEALTH_SERVICE] }).addToServer(server);
}
