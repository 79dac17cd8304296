/** Its own process, off the load generator's event loop: MARKETPLACE_URL=ws://… BENCH_SOLVERS='[{"credential":"slv_…","delayMs":5}]'. */
import WebSocket from 'ws';

const url = process.env.MARKETPLACE_URL!;
const solvers = JSON.parse(process.env.BENCH_SOLVERS ?? '[]') as { credential: string; delayMs: number }[];

for (const [i, s] of solvers.entries()) {
  const connect = () => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${s.credential}` } });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string; rfq_id?: string; amount?: string };
      if (frame.type === 'heartbeat') ws.send('{"type":"heartbeat"}');
      if (frame.type === 'rfq') {
        const quoted = ((BigInt(frame.amount!) * BigInt(990 + i)) / 1000n).toString();
        setTimeout(() => ws.send(JSON.stringify({ type: 'quote', rfq_id: frame.rfq_id, quoted_amount: quoted })), s.delayMs);
      }
    });
    ws.on('close', () => setTimeout(connect, 500));
    ws.on('error', () => undefined);
  };
  connect();
}
