#!/usr/bin/env node
/**
 * Completes package-lock.json with the other platforms' optional binaries (biome, swc, the jest
 * resolver, …) when the registry this lock file was made against does not serve them: npm then
 * leaves them out of the lock file, and `npm ci` refuses the lock file as out of sync. Each
 * missing entry is written as an optional package for its platform (os, cpu, libc from its
 * name), which `npm ci` skips on every other platform. Run it after `npm install` changes the
 * lock file: `node scripts/lockfile-platforms.cjs`.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['android', 'darwin', 'linux', 'win32', 'freebsd', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu =
    parts.find((p) => CPU.includes(p)) ?? (parts.includes('eabi') || parts.includes('gnueabihf') ? 'arm' : undefined);
  const libc = parts.includes('musl') || parts.includes('musleabihf') ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return {
    ...(os ? { os: [os] } : {}),
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(libc && os === 'linux' ? { libc: [libc] } : {}),
  };
}

let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    const top = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[top]) continue;
    lock.packages[top] = { version, license: pkg.license, optional: true, ...platformOf(name) };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`package-lock.json: ${added} optional platform package(s) added\n`);
