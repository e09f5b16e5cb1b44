/**
 * What the app-server surface loads on the first request its first routes do not answer, as one
 * module (one chunk in a page's bundle, one split point): the later routes and the OpenAPI document.
 */
import type { Route } from '../../http/route.js';
import { documentRoute } from './document.js';
import { laterRoutes } from './routes/later.js';

/** The later routes, then `/openapi.json`. */
export const laterAndDocument: readonly Route[] = Object.freeze([...laterRoutes, documentRoute]);
