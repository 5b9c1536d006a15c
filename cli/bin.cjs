#!/usr/bin/env node
// The package's `platform` command: runs the TypeScript command line through tsx.
require('tsx/cjs');
require('./main.ts');
