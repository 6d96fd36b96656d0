import { router } from '../../trpc/init.ts';

export const incidentsRouter = router({});
