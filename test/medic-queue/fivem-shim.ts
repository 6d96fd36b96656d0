/**
 * A small stand-in for FXServer's JavaScript runtime, enough to load a server-side resource in
 * plain Node: the scripts of `fxmanifest.lua` (server_script lines) run in one shared vm context
 * whose globals are FiveM's (`on`, `onNet`, `emit`, `emitNet`, `AddEventHandler`, `RegisterCommand`,
 * `GetConvar`, `GetCurrentResourceName`, `GetResourcePath`, `exports`, `setTick`, `clearTick`,
 * `IsDuplicityVersion`), with no global `fetch` (FiveM's Node 16 has none). Files the resource
 * `require`s by path are loaded into the same context, as FiveM does; Node built-ins come from Node.
 * Not a real FXServer: no game, no players, no Lua.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import vm from 'node:vm';

type Handler = (...args: any[]) => unknown;

export interface FiveM {
  /** Fires a server event as another server script would (`emit`), awaiting async handlers. */
  emit(name: string, ...args: unknown[]): Promise<void>;
  /** Fires a net event as if player `source` sent it. */
  emitNet(name: string, source: number, ...args: unknown[]): Promise<void>;
  /** Runs a registered command as the console (source 0). */
  command(name: string, args: string[]): Promise<void>;
  /** Calls an export of the loaded resource, as `exports[resource][name](...)` would. */
  callExport(name: string, ...args: unknown[]): unknown;
  /** Starts the resource: runs its server scripts, then fires `onResourceStart`. */
  start(): Promise<void>;
  /** Fires `onResourceStop` (FXServer keeps running: the process stays). */
  stop(): Promise<void>;
  /** Lines the resource wrote with console.* */
  output: string[];
  /** Events sent to clients with emitNet. */
  sentToClients: { name: string; target: number; args: unknown[] }[];
}

/** Reads the server_script / server_scripts entries of an fxmanifest.lua, in order. */
export function serverScripts(manifest: string): string[] {
  const out: string[] = [];
  const re = /^\s*server_scripts?\s*(?:\{([^}]*)\}|['"]([^'"]+)['"])/gm;
  for (let m; (m = re.exec(manifest));) {
    if (m[2]) out.push(m[2]);
    else for (const s of m[1].matchAll(/['"]([^'"]+)['"]/g)) out.push(s[1]);
  }
  return out;
}

export function loadResource(opts: { path: string; name: string; convars: Record<string, string> }): FiveM {
  const handlers = new Map<string, Handler[]>();
  const netEvents = new Set<string>();
  const commands = new Map<string, Handler>();
  const exported = new Map<string, Handler>();
  const ticks = new Map<number, NodeJS.Timeout>();
  const output: string[] = [];
  const sentToClients: FiveM['sentToClients'] = [];
  let nextTick = 1;
  const add = (name: string, fn: Handler) => handlers.set(name, [...(handlers.get(name) ?? []), fn]);
  const fire = async (name: string, ...args: unknown[]) => {
    for (const fn of handlers.get(name) ?? []) await fn(...args);
  };
  const line = (...args: unknown[]) => output.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));

  // FiveM's `exports`: a function registering this resource's exports, and a map of every resource's.
  const exportsFn = new Proxy(function exportsRegister(name: string, fn: Handler) { exported.set(name, fn); }, {
    get(target, prop) {
      if (prop === opts.name) return Object.fromEntries(exported);
      return Reflect.get(target, prop);
    },
  });

  const sandbox: Record<string, unknown> = {
    console: { log: line, info: line, warn: line, error: line, debug: line },
    setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, queueMicrotask,
    Buffer, process, URL, URLSearchParams, TextEncoder, TextDecoder, AbortController,
    on: add, AddEventHandler: add,
    onNet: (name: string, fn: Handler) => { netEvents.add(name); add(name, fn); },
    RegisterNetEvent: (name: string) => netEvents.add(name),
    emit: (name: string, ...args: unknown[]) => void fire(name, ...args),
    TriggerEvent: (name: string, ...args: unknown[]) => void fire(name, ...args),
    emitNet: (name: string, target: number, ...args: unknown[]) => sentToClients.push({ name, target, args }),
    RegisterCommand: (name: string, fn: Handler) => commands.set(name, fn),
    GetConvar: (name: string, fallback: string) => opts.convars[name] ?? fallback,
    GetCurrentResourceName: () => opts.name,
    GetResourcePath: (name: string) => (name === opts.name ? opts.path : ''),
    GetPlayerName: (src: number) => `player ${src}`,
    IsDuplicityVersion: () => true,
    setTick: (fn: Handler) => {
      const id = nextTick++;
      ticks.set(id, setInterval(fn, 16) as unknown as NodeJS.Timeout);
      return id;
    },
    clearTick: (id: number) => {
      clearInterval(ticks.get(id));
      ticks.delete(id);
    },
    exports: exportsFn,
  };
  const context = vm.createContext(sandbox);
  const nodeRequire = createRequire(join(opts.path, 'fxmanifest.lua'));
  const cache = new Map<string, unknown>();
  /** FiveM's `require`: files by path run in the resource's context, packages and built-ins from Node. */
  const requireFrom = (dir: string) => (id: string): unknown => {
    if (isBuiltin(id) || !(id.startsWith('.') || isAbsolute(id))) return nodeRequire(id);
    let file = isAbsolute(id) ? id : resolve(dir, id);
    if (!existsSync(file) && existsSync(`${file}.js`)) file = `${file}.js`;
    if (cache.has(file)) return cache.get(file);
    const module = { exports: {} as unknown };
    cache.set(file, module.exports);
    const fn = vm.runInContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, context, { filename: file });
    fn(module.exports, requireFrom(dirname(file)), module, file, dirname(file));
    cache.set(file, module.exports);
    return module.exports;
  };
  sandbox.require = requireFrom(opts.path);

  return {
    output,
    sentToClients,
    async start() {
      const scripts = serverScripts(readFileSync(join(opts.path, 'fxmanifest.lua'), 'utf8'));
      if (!scripts.length) throw new Error('fxmanifest.lua lists no server_script');
      for (const s of scripts) vm.runInContext(readFileSync(join(opts.path, s), 'utf8'), context, { filename: join(opts.path, s) });
      await fire('onResourceStart', opts.name);
    },
    async stop() {
      await fire('onResourceStop', opts.name);
      for (const id of [...ticks.keys()]) (sandbox.clearTick as Handler)(id);
    },
    emit: (name, ...args) => fire(name, ...args),
    async emitNet(name, source, ...args) {
      if (!netEvents.has(name)) throw new Error(`${name} is not a net event of this resource`);
      sandbox.source = source;
      await fire(name, ...args);
    },
    async command(name, args) {
      const fn = commands.get(name);
      if (!fn) throw new Error(`no command ${name}`);
      await fn(0, args, `${name} ${args.join(' ')}`);
    },
    callExport(name, ...args) {
      const fn = exported.get(name);
      if (!fn) throw new Error(`no export ${name}`);
      return fn(...args);
    },
  };
}
