/**
 * Connect-ES transports for the browser (connect-web over fetch): gRPC-web and the
 * Connect protocol (binary). Browsers cannot speak gRPC itself (no HTTP trailers in
 * fetch), so a gRPC profile is refused with that reason.
 */
import type { Transport } from '@connectrpc/connect'
import { createConnectTransport, createGrpcWebTransport } from '@connectrpc/connect-web'
import type { RpcTransportKind } from './remote'

export function webTransportFor(kind: RpcTransportKind, baseUrl: string): Transport {
  switch (kind) {
    case 'grpc':
      throw new Error('a browser cannot speak gRPC over HTTP/2 (fetch has no trailers): use grpc-web or connect')
    case 'grpc-web':
      return createGrpcWebTransport({ baseUrl, useBinaryFormat: true })
    case 'connect':
      return createConnectTransport({ baseUrl, useBinaryFormat: true })
  }
}
