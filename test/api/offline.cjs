/**
 * Preloaded (`node --require`) into a tool a test runs, to hold it offline: a connection to any
 * address but this machine's (loopback, a local socket) or a DNS lookup fails, and is written to
 * stderr as `offline: …` for the test to see.
 */
const dns = require('node:dns');
const net = require('node:net');

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/i;

function refuse(what) {
  process.stderr.write(`offline: ${what} refused\n`);
  const err = new Error(`offline: ${what} refused`);
  err.code = 'ENETUNREACH';
  return err;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = typeof first === 'object' && first !== null ? first : { port: first, host: args[1] };
  if (options.path === undefined) {
    const host = options.host ?? 'localhost';
    if (!LOOPBACK.test(host)) {
      const err = refuse(`connection to ${host}:${options.port}`);
      process.nextTick(() => this.destroy(err));
      return this;
    }
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  if (LOOPBACK.test(host)) return lookup.call(this, host, ...rest);
  const callback = rest.at(-1);
  const err = refuse(`DNS lookup of ${host}`);
  process.nextTick(() => callback(err));
};
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = (host, ...rest) =>
  LOOPBACK.test(host) ? lookupPromise(host, ...rest) : Promise.reject(refuse(`DNS lookup of ${host}`));
