import { router } from '../../trpc/init.ts';

export const accessRouter = router({});
