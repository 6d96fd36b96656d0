export async function runGuilds(_args: string[]): Promise<void> {
  throw new Error('not yet');
}
