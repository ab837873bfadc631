/**
 * Fastify's request log lines, one per answered request: at debug normally, at warn when the
 * answer was a 5xx, failed mid-way or took longer than `slowRequestMs`. Fastify's default writes
 * two info lines per request; at the default level the log should hold start, stop, warnings and
 * errors, so that a gateway logging to flash storage does not write a line for every click.
 *
 * Websockets are not answered through here (their reply is handed over to the socket); routes
 * marked `longPoll` wait on purpose, so their time is never reported as slow.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { answeredDeliberately } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler waits for something to happen before answering (the device RPC long poll). */
    longPoll?: boolean;
  }
}

export class RequestLog extends LogController {
  constructor(private readonly slowRequestMs: number) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = Math.round(reply.elapsedTime);
    const { statusCode } = reply;
    const line = { req: request, res: { statusCode }, responseTime };
    if (error) request.log.warn({ ...line, err: error }, 'request errored');
    else if (statusCode >= 500 && !answeredDeliberately(request)) request.log.warn(line, 'request answered with a server error');
    else if (responseTime > this.slowRequestMs && request.routeOptions.config.longPoll !== true) request.log.warn(line, 'slow request');
    else request.log.debug(line, 'request completed');
  }

  /** A client that leaves before the end of an answer is routine; other stream failures are not. */
  override streamError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') request.log.debug({ res: { statusCode: reply.statusCode } }, 'stream closed prematurely');
    else request.log.warn({ err: error }, 'response terminated with an error with headers already sent');
  }
}
