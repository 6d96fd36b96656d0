import { router } from '../../trpc/init.ts';

export const unitsRouter = router({});
