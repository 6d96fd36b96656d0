import { router } from '../../trpc/init.ts';

export const dispatchRouter = router({});
