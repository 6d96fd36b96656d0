#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so no build step is needed.
import { register } from 'tsx/esm/api';
register();
process.env.DT_CLI = '1';
await import('../cli.ts');
