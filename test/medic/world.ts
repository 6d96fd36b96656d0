import { insertPerson, insertRank } from '../../server/domains/people/store.ts';
import { seedGuild, signIn, unscopedKey } from '../helpers/fixtures.ts';
import { call, startTestServer, type CallOptions } from '../helpers/server.ts';

/**
 * A server with a guild for the medic tests: an admin (boss), a rank with medic.files.view (viewer),
 * one with medic.files.manage too (medic), one with neither (crew), and an unscoped key (the game's).
 */
export async function medicWorld(t: { teardown(fn: () => unknown): void }, guildId: string) {
  const server = await startTestServer(t);
  await seedGuild(server.sql, guildId, [
    { userId: 'boss', nickname: 'Boss', admin: true, badge: '01' },
    { userId: 'crew', nickname: 'Carla Crew', rank: 'crew', badge: '02' },
  ]);
  await insertRank(server.sql, guildId, { id: 'viewer', name: 'Leser', position: 3, capabilities: ['medic.files.view'] });
  await insertRank(server.sql, guildId, { id: 'medic', name: 'Notarzt', position: 4, capabilities: ['medic.files.view', 'medic.files.manage'] });
  await insertPerson(server.sql, guildId, { userId: 'viewer', nickname: 'Vera Viewer', badge: '03', rankId: 'viewer', isAdmin: false });
  await insertPerson(server.sql, guildId, { userId: 'medic', nickname: 'Mia Medic', badge: '04', rankId: 'medic', isAdmin: false });
  const key = await unscopedKey(server.sql, guildId, 'game');
  const as = {
    boss: await signIn(server, guildId, 'boss'), crew: await signIn(server, guildId, 'crew'),
    viewer: await signIn(server, guildId, 'viewer'), medic: await signIn(server, guildId, 'medic'),
  };
  const api = (method: string, path: string, o: CallOptions = {}) => call(server.url, method, path, o.session ? o : { key, ...o });
  const post = (events: unknown[], o: CallOptions = {}) => api('POST', '/medic/events', { body: { events }, ...o });
  /** The id of the guild's newest file of a citizen; throws when the citizen has none. */
  const fileIdOf = async (citizenId: string): Promise<number> => {
    const [row] = await server.sql`select id from medic_files where guild_id = ${guildId} and citizen_id = ${citizenId} order by id desc limit 1`;
    if (!row) throw new Error(`no medic file for ${citizenId} in ${guildId}`);
    return Number(row.id);
  };
  /** That file as GET /medic/patients/{fileId} shows it. */
  const fileOf = async (citizenId: string) => (await api('GET', `/medic/patients/${await fileIdOf(citizenId)}`)).body;
  return { server, key, as, api, post, fileIdOf, fileOf };
}
