import type { Socket } from 'node:net';
import type { ConnectionOptions, NatsConnection } from 'nats';
import { NatsConnectionImpl, setTransportFactory } from 'nats/lib/nats-base-client/internal_mod';
import { NodeTransport, nodeResolveHost } from 'nats/lib/src/node_transport';

/** nats.js, its writes corked until the event loop's turn ends: docs/architecture/runtime.md#the-bus. */
class TurnCoalescingTransport extends NodeTransport {
  private corked?: Socket;

  override _send(frame: Uint8Array): Promise<void> {
    const socket = this.socket as Socket | undefined;
    if (socket && this.corked !== socket && !socket.destroyed) {
      socket.cork();
      this.corked = socket;
      setImmediate(() => this.uncork(socket));
    }
    return super._send(frame);
  }

  /** nats.js closes by destroying the socket, which would drop what is still corked. */
  override close(err?: Error): Promise<void> {
    if (this.corked) this.uncork(this.corked);
    return super.close(err);
  }

  private uncork(socket: Socket): void {
    if (this.corked !== socket) return;
    this.corked = undefined;
    socket.uncork();
  }
}

export function connectNats(options: ConnectionOptions): Promise<NatsConnection> {
  setTransportFactory({ factory: () => new TurnCoalescingTransport(), dnsResolveFn: nodeResolveHost });
  return NatsConnectionImpl.connect(options);
}
