/** Every endpoint of the app server's API (what the real service serves): the first routes and the later ones. */
import type { Route } from '../../../http/route.js';
import { firstRoutes } from './index.js';
import { laterRoutes } from './later.js';

/** Every endpoint of the API, for the OpenAPI document, drift and the README tables. */
export const apiRoutes: readonly Route[] = Object.freeze([...firstRoutes, ...laterRoutes]);
