// Entry of a chart worker thread. A worker does not inherit the parent's loader hooks in every
// way the server starts (tsx's register() in server/bin, `node --import tsx` in tests), and it is
// started with no execArgv, so it registers tsx itself, exactly once, then loads the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
