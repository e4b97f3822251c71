/**
 * Holds change streams open in a process of its own (the bench's hardening phase): 500 streams are
 * 500 devices, and reading them in the process that times the writes would time the reader. Reads
 * STREAM_URL and the tokens (one per line) from STREAM_TOKENS_FILE, opens STREAM_COPIES streams per
 * token with node:http, prints `open <n>` once every stream said `ready`, then stays until killed.
 */
import fs from 'node:fs';
import http from 'node:http';

const url = process.env.STREAM_URL!;
const copies = Number(process.env.STREAM_COPIES ?? 5);
const tokens = fs.readFileSync(process.env.STREAM_TOKENS_FILE!, 'utf8').split('\n').filter(Boolean);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function open(token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
      let ready = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!ready && chunk.includes('event: ready')) {
          ready = true;
          resolve();
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
  });
}

let opened = 0;
for (const token of tokens) {
  for (let copy = 0; copy < copies; copy++) {
    await open(token);
    opened += 1;
  }
}
process.stdout.write(`open ${opened}\n`);
setInterval(() => undefined, 60_000);
