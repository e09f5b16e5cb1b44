// The ceiling: a bare node:http server answering every request with a precomputed body.
// Usage: node bare.mjs BODY_FILE  (the file holds {"<METHOD> <path>": body-string, ...})
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const server = createServer((req, res) => {
  const path = req.url.split('?')[0];
  const body = bodies[`${req.method} ${path}`] ?? '{"detail":"Not Found"}';
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
