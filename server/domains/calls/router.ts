import { router } from '../../trpc/init.ts';

export const callsRouter = router({});
