// `node --import` this before the MCP conformance suite on Node 20: the suite imports fs.globSync
// (Node 22); conformance-hooks.mjs gives it one that says so if it is ever called. On Node 22, nothing.
import * as fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') register(new URL('./conformance-hooks.mjs', import.meta.url));
