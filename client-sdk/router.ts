/**
 * The only place the SDK reaches into server/, for the one type that cannot live in contract/: the
 * router itself, whose procedures tRPC's client infers from. Types, never values. The package ships them as the
 * generated `dist/router.d.ts` (built from these exports), so a consumer's tsc sees the real input
 * and output of every procedure, and the built JavaScript imports nothing of the server.
 * test/sdk/boundaries.test.ts holds the SDK and the board to this: no value from server/, and this
 * one type only here.
 */
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../server/trpc/app-router.ts';

export type { AppRouter };
export type { DroppedFrame, LiveFrame, StatusFrame, WatchFrame } from '../contract/frames.ts';
export type { TopicState } from '../contract/reducers.ts';
export type { Op, Topic } from '../contract/topics.ts';
export type { AlarmState } from '../contract/alarm.ts';
/** Route metadata (REST path, access, scopes) carried by each procedure's type. */
export type { Meta } from '../contract/meta.ts';

/** Input of each procedure, e.g. `RouterInputs['calls']['report']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Output of each procedure as the typed client returns it (Dates as Date). */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
