/** Types of build-check.mjs (plain JavaScript: the bin runs it without tsx). */
export interface BuildTarget { name: 'product' | 'boardTest'; dir: string }
export interface BuildManifest {
  format: number;
  version: string;
  builtAt: string;
  /** The compiled CLI, relative to dist/ (product only). */
  server?: string;
  /** The compiled terminal alarm client (`dispatch-terminal alarm`), relative to dist/ (product only). */
  alarm?: string;
  board: { dir: string; js: string; css: string };
  files: string[];
  inputs: Record<string, [size: number, mtimeMs: number, sha256: string]>;
}
export const root: string;
export const distDir: string;
export const BUILD_FORMAT: number;
export const targets: { product: BuildTarget; boardTest: BuildTarget };
export function manifestPath(target: BuildTarget): string;
export function sourcesPresent(): boolean;
export function packageVersion(): string;
export function readManifest(target: BuildTarget): BuildManifest | null;
export function sha256(bytes: Buffer): string;
export function staleReason(target: BuildTarget): string | null;
export function withBuildLock<T>(fn: () => Promise<T>): Promise<T>;
export function ensureBuilt(target: BuildTarget, say: (line: string) => void): Promise<BuildManifest>;
