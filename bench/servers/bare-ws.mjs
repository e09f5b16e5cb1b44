// Baseline of the agent socket benchmark: a bare `ws` server that, when a client sends "go N SIZE",
// broadcasts N frames of SIZE bytes to every connected client, as fast as it can.
import { WebSocketServer } from 'ws';
const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
server.on('listening', () => console.log(`fakehands listening on http://127.0.0.1:${server.address().port}`));
server.on('connection', (socket) => {
  socket.on('message', (data) => {
    const [, n, size] = String(data).split(' ');
    const frame = JSON.stringify({ kind: 'MessageEvent', padding: 'x'.repeat(Number(size)) });
    for (let i = 0; i < Number(n); i++) for (const client of server.clients) client.send(frame);
  });
});
