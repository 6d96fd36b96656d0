/** Route metadata is contract data (the SDK's types carry it): defined in contract/meta.ts. */
export type { HttpMethod, Meta } from '../../contract/meta.ts';
