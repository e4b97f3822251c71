/** Server-sent events as they arrive on a node:http response: each complete event, named, with its data line. */
export function onServerSentEvents(onEvent: (event: string, data: string) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event) onEvent(event, /^data: (.*)$/m.exec(block)?.[1] ?? '');
    }
  };
}
