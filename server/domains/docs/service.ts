import type { Deps } from '../../deps.ts';
import { documentedRoutes, type DocRoute } from '../../docs/model.ts';
import { openApiDocument } from '../../docs/openapi.ts';
import { postmanCollection } from '../../docs/collection.ts';
import { llmsText } from '../../docs/llms.ts';
import { referencePage } from '../../docs/page.ts';

let model: DocRoute[] | null = null;
const rendered = new Map<string, unknown>();

/** The route table read once, lazily: the docs procedures are themselves in the table they describe. */
async function docModel(): Promise<DocRoute[]> {
  if (!model) {
    const [{ appRouter }, { restRoutes }] = await Promise.all([import('../../trpc/app-router.ts'), import('../../transport/routes.ts')]);
    model = documentedRoutes(restRoutes(appRouter));
  }
  return model;
}

async function cached<T>(key: string, make: (m: DocRoute[]) => T): Promise<T> {
  if (!rendered.has(key)) rendered.set(key, make(await docModel()));
  return rendered.get(key) as T;
}

export const openApi = (deps: Deps) => cached(`openapi ${deps.config.publicUrl}`, (m) => openApiDocument(m, deps.config.publicUrl, deps.auth.cookieName));
export const collection = (deps: Deps) => cached(`collection ${deps.config.publicUrl}`, (m) => postmanCollection(m, deps.config.publicUrl));
export const llms = async (deps: Deps) => ({ contentType: 'text/plain' as const, text: await cached(`llms ${deps.config.publicUrl}`, (m) => llmsText(m, deps.config.publicUrl)) });
export const page = async (deps: Deps) => ({ contentType: 'text/html' as const, text: await cached(`page ${deps.config.publicUrl}`, (m) => referencePage(m, deps.config.publicUrl)) });
