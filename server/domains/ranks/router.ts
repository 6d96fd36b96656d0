import { router } from '../../trpc/init.ts';

export const ranksRouter = router({});
