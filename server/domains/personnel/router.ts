import { router } from '../../trpc/init.ts';

export const personnelRouter = router({});
