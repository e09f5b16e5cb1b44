/** Where the app server serves its OpenAPI document (FastAPI's default). */
export const OPENAPI_PATH = '/openapi.json';
