/** Types of build.mjs (plain JavaScript, run by node and by the bin when a build is stale). */
import type { BuildManifest, BuildTarget } from './build-check.mjs';
export function build(target: BuildTarget): Promise<Omit<BuildManifest, 'files' | 'inputs'>>;
