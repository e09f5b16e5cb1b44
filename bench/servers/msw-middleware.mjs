// The common way of serving msw handlers over HTTP: @mswjs/http-middleware in express,
// with the same fakehands handlers. Usage: node msw-middleware.mjs
import { createMiddleware } from '@mswjs/http-middleware';
import express from 'express';
import { createFake } from '../../dist/index.js';

const app = express();
const server = app.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  const fake = await createFake({ baseUrl: url, timings: 'instant', clock: 'system' });
  app.use(createMiddleware(...fake.handlers));
  console.log(`listening on ${url}`);
});
