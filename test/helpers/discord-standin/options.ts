/**
 * Slash command options as Discord's client builds them from the registered command: it only
 * offers declared options, enforces choices, ranges and lengths, and hides commands a member's
 * permissions do not allow (default_member_permissions).
 */
import { Perm, type StandInGuild, type World } from './state.ts';

/** The registered command `name` usable in the guild (guild commands first), waiting for registration up to `ms`. */
export async function findCommand(world: World, guildId: string, name: string, ms: number): Promise<any> {
  const find = () => (world.commands.get(guildId) ?? []).find((c) => c.name === name && (c.type ?? 1) === 1)
    ?? (world.commands.get('global') ?? []).find((c) => c.name === name && (c.type ?? 1) === 1);
  await world.waitForCommands(() => Boolean(find()), ms);
  const cmd = find();
  if (!cmd) {
    const names = [...world.commands.values()].flat().map((c) => c.name);
    throw new Error(`discord stand-in: no slash command /${name} is registered (registered: ${names.join(', ') || 'none'})`);
  }
  if (Array.isArray(cmd.contexts) && !cmd.contexts.includes(0)) throw new Error(`discord stand-in: /${name} is not usable in guilds (contexts ${JSON.stringify(cmd.contexts)})`);
  return cmd;
}

export function checkMemberMayUse(cmd: any, perms: bigint, userId: string) {
  const needed = cmd.default_member_permissions;
  if (needed === null || needed === undefined) return;
  const bits = BigInt(needed);
  const admin = (perms & 0x8n) !== 0n || perms === Perm.all;
  if (!admin && (bits === 0n || (perms & bits) !== bits)) {
    throw new Error(`discord stand-in: Discord hides /${cmd.name} from ${userId} (default_member_permissions ${needed}), so the member cannot run it`);
  }
}

/** The options level a (group and) subcommand points at, and the data options to nest values in. */
export function optionLevel(cmd: any, subcommand?: string): { declared: any[]; wrap: (opts: any[]) => any[] } {
  const top: any[] = cmd.options ?? [];
  const hasSubs = top.some((o) => o.type === 1 || o.type === 2);
  if (!subcommand) {
    if (hasSubs) throw new Error(`discord stand-in: /${cmd.name} needs a subcommand (${top.map((o) => o.name).join(', ')})`);
    return { declared: top, wrap: (o) => o };
  }
  const [first, second] = subcommand.split(/[ /]/);
  const node = top.find((o) => o.name === first && (o.type === 1 || o.type === 2));
  if (!node) throw new Error(`discord stand-in: /${cmd.name} has no subcommand ${first} (has ${top.map((o) => o.name).join(', ') || 'none'})`);
  if (node.type === 2) {
    const sub = (node.options ?? []).find((o: any) => o.name === second && o.type === 1);
    if (!sub) throw new Error(`discord stand-in: /${cmd.name} ${first} has no subcommand ${second}`);
    return { declared: sub.options ?? [], wrap: (o) => [{ type: 2, name: first, options: [{ type: 1, name: second, options: o }] }] };
  }
  return { declared: node.options ?? [], wrap: (o) => [{ type: 1, name: first, options: o }] };
}

/** A value as Discord's client sends it for the declared option (it enforces choices, ranges and lengths). */
export function optionValue(world: World, cmdName: string, decl: any, value: string | number | boolean, guild: StandInGuild, resolved: any) {
  const where = `/${cmdName} option ${decl.name}`;
  let v: string | number | boolean = value;
  switch (decl.type) {
    case 3:
      v = String(value);
      if (decl.min_length !== undefined && v.length < decl.min_length) throw new Error(`discord stand-in: ${where} needs at least ${decl.min_length} characters`);
      if (decl.max_length !== undefined && v.length > decl.max_length) throw new Error(`discord stand-in: ${where} allows at most ${decl.max_length} characters`);
      break;
    case 4:
    case 10:
      v = Number(value);
      if (!Number.isFinite(v) || (decl.type === 4 && !Number.isInteger(v))) throw new Error(`discord stand-in: ${where} takes ${decl.type === 4 ? 'an integer' : 'a number'}, not ${value}`);
      if (decl.min_value !== undefined && v < decl.min_value) throw new Error(`discord stand-in: ${where} is at least ${decl.min_value}`);
      if (decl.max_value !== undefined && v > decl.max_value) throw new Error(`discord stand-in: ${where} is at most ${decl.max_value}`);
      break;
    case 5:
      if (typeof value !== 'boolean') throw new Error(`discord stand-in: ${where} takes a boolean`);
      break;
    case 6: {
      v = String(value);
      const u = guild.members.get(v) ?? world.users.get(v);
      if (!u) throw new Error(`discord stand-in: ${where}: unknown user ${v}`);
      (resolved.users ??= {})[v] = world.userPayload(u);
      if (guild.members.has(v)) {
        const { user: _user, ...member } = world.memberPayload(guild, v);
        (resolved.members ??= {})[v] = { ...member, permissions: world.memberPermissions(guild, v).toString() };
      }
      break;
    }
    case 7: {
      v = String(value);
      const i = guild.channels.findIndex((c) => c.id === v);
      if (i === -1) throw new Error(`discord stand-in: ${where}: unknown channel ${v}`);
      const c = world.channelPayload(guild, guild.channels[i], i);
      (resolved.channels ??= {})[v] = { id: c.id, name: c.name, type: c.type, permissions: '0', flags: 0 };
      break;
    }
    case 8: {
      v = String(value);
      const role = world.rolePayloads(guild).find((r) => r.id === v);
      if (!role) throw new Error(`discord stand-in: ${where}: unknown role ${v}`);
      (resolved.roles ??= {})[v] = role;
      break;
    }
    default:
      v = String(value);
  }
  if (Array.isArray(decl.choices) && decl.choices.length && !decl.choices.some((c: any) => c.value === v)) {
    throw new Error(`discord stand-in: ${where} only offers ${decl.choices.map((c: any) => JSON.stringify(c.value)).join(', ')}`);
  }
  return v;
}
