import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Instruction { op: string; args: string }
export interface Stage { from: string; name: string | null; instructions: Instruction[] }

/**
 * The Dockerfile's stages and their instructions (continuation lines joined, comments dropped), for
 * tests that check it or carry out its last stage by hand: no Docker engine runs here.
 */
export function dockerfileStages(text = readFileSync(`${repoRoot}/Dockerfile`, 'utf8')): Stage[] {
  const stages: Stage[] = [];
  const joined = text.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n').replace(/\\\n/g, ' ');
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = m[1].toUpperCase();
    const args = m[2].trim();
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ from: f[1], name: f[2] ?? null, instructions: [] });
    } else {
      stages.at(-1)!.instructions.push({ op, args });
    }
  }
  return stages;
}

/** The `KEY=value` pairs of a stage's ENV lines, the stages it is built `FROM` included. */
export function stageEnv(stages: Stage[], stage: Stage): Record<string, string> {
  const base = stages.find((s) => s.name === stage.from);
  const env: Record<string, string> = base ? stageEnv(stages, base) : {};
  for (const i of stage.instructions.filter((x) => x.op === 'ENV')) {
    for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]] = m[2].replace(/^"|"$/g, '');
  }
  return env;
}

/** An exec-form argument (`["node", "x"]`) as its array; shell form is refused. */
export function execForm(args: string): string[] {
  const json = args.replace(/^(--\S+\s+)*(CMD\s+)?/, '');
  if (!json.startsWith('[')) throw new Error(`not in exec form: ${args}`);
  return JSON.parse(json);
}

/**
 * Whether .dockerignore keeps `path` (relative to the context) out of the build context: Docker's
 * rules, a pattern matching the path or a folder above it (`*` within one name, `**` any depth,
 * `!` takes an earlier match back).
 */
export function dockerIgnored(path: string, patterns = readDockerignore()): boolean {
  const parts = path.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const re = globRegex(negate ? raw.slice(1) : raw);
    if (prefixes.some((p) => re.test(p))) ignored = !negate;
  }
  return ignored;
}

function readDockerignore(): string[] {
  return readFileSync(`${repoRoot}/.dockerignore`, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
    .map((l) => l.replace(/^\/+|\/+$/g, ''));
}

function globRegex(glob: string): RegExp {
  const body = glob.split('/').map((seg) => (seg === '**' ? '.*' : seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))).join('/');
  return new RegExp(`^${body.replace(/\.\*\//g, '(?:.*/)?')}$`);
}
