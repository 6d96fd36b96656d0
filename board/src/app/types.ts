import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../client-sdk/index.ts';

/** Outputs and inputs of every procedure, straight from the server's router. */
export type Out = inferRouterOutputs<AppRouter>;
export type In = inferRouterInputs<AppRouter>;

export type Access = Out['access']['status'];
export type Branding = Out['branding']['get'];
export type Prefs = Out['preferences']['get']['prefs'];
export interface UserGuild { guildId: string; name: string; nickname: string; isAdmin: boolean }
