import { z } from 'zod';
import { publicProcedure, router } from '../../trpc/init.ts';
import { collection, llms, openApi, page } from './service.ts';

const Document = z.record(z.string(), z.unknown());
const Text = (type: string) => z.object({ contentType: z.literal(type), text: z.string() });

export const docsRouter = router({
  page: publicProcedure
    .meta({
      rest: { method: 'GET', path: '/docs', produces: 'text/html', aliases: ['/docs'] }, tag: 'Dokumentation', access: 'none',
      summary: 'This reference as a page: every route with access, schemas, status codes, audit, topics and an example.',
    })
    .output(Text('text/html'))
    .query(({ ctx }) => page(ctx.deps)),
  openapi: publicProcedure
    .meta({ rest: { method: 'GET', path: '/docs/openapi.json', aliases: ['/docs/openapi.json'] }, tag: 'Dokumentation', access: 'none', summary: 'OpenAPI 3.1 document of every route.' })
    .output(Document)
    .query(({ ctx }) => openApi(ctx.deps)),
  collection: publicProcedure
    .meta({ rest: { method: 'GET', path: '/docs/collection.json', aliases: ['/docs/collection.json'] }, tag: 'Dokumentation', access: 'none', summary: 'Postman Collection v2.1 of every route, with variables baseUrl, apiKey and guildId.' })
    .output(Document)
    .query(({ ctx }) => collection(ctx.deps)),
  llms: publicProcedure
    .meta({ rest: { method: 'GET', path: '/docs/llms.txt', produces: 'text/plain', aliases: ['/docs/llms.txt', '/llms.txt'] }, tag: 'Dokumentation', access: 'none', summary: 'Plain-text guide for language models: the service, auth, every route on one line, errors, limits.' })
    .output(Text('text/plain'))
    .query(({ ctx }) => llms(ctx.deps)),
});
