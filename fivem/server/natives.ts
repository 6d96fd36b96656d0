/**
 * The FXServer globals the resource's server script uses, read from `globalThis` at call time.
 * Never the bare names: in the CommonJS bundle `exports` would be the module's, and a stand-in
 * (the tests' harness) sets them on globalThis just as FXServer does.
 */
type Handler = (...args: any[]) => unknown;

export interface Natives {
  exports(name: string, fn: Handler): void;
  on(event: string, fn: Handler): void;
  onNet(event: string, fn: Handler): void;
  emitNet(event: string, target: number | string, ...args: unknown[]): void;
  GetConvar(name: string, fallback: string): string;
  GetCurrentResourceName(): string;
  GetResourcePath(name: string): string;
  GetNumPlayerIdentifiers(source: number | string): number;
  GetPlayerIdentifier(source: number | string, index: number): string;
  GetPlayerName(source: number | string): string;
  GetInvokingResource(): string | null | undefined;
  RegisterCommand(name: string, fn: Handler, restricted: boolean): void;
  getPlayers(): (number | string)[];
  /** The player who sent the net event being handled. */
  source: number | string;
}

export const natives: Natives = new Proxy({} as Natives, {
  get(_, name: string) {
    const value = (globalThis as Record<string, unknown>)[name];
    if (value === undefined && name !== 'source' && name !== 'GetInvokingResource') throw new Error(`FiveM global ${name} is missing`);
    return value;
  },
});

/** Identifiers of a connected player (`discord:…`, `license:…`); empty for one not connected. */
export function identifiersOf(source: number | string): string[] {
  const out: string[] = [];
  const n = Number(natives.GetNumPlayerIdentifiers(source)) || 0;
  for (let i = 0; i < n; i++) out.push(natives.GetPlayerIdentifier(source, i));
  return out;
}
