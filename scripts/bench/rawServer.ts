/**
 * The baseline of the REST comparison: a bare node:http server answering every request with the bytes
 * and headers the app gave for GET /api/events. Run as its own process, like the app, so neither shares
 * a core's event loop with the load generator.
 */
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.env.RAW_BODY_FILE!);
const headers = { ...(JSON.parse(process.env.RAW_HEADERS!) as Record<string, string>), 'content-length': String(body.length) };

const server = http.createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.RAW_PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
