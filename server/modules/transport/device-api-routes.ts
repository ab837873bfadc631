/**
 * The HTTP device API (server/contract/device-api.ts): ThingsBoard's `/api/v1/{accessToken}/…`
 * calls. Bodies are read as bytes (at most 64 KB, whatever the content type) and parsed by the code
 * the MQTT broker uses, so both refuse the same input with the same reason.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DEVICE_PAYLOAD_MAX_BYTES, deviceApiRoutes, RPC_POLL_TIMEOUT_DEFAULT_MS } from '../../contract/device-api.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Services } from '../../module.ts';
import { sendError } from '../../plugins/errors.ts';
import type { ConnectedDevice } from './device-messages.ts';
import { cutChunk, HTTP_CHUNK_MAX_BYTES } from './package-chunks.ts';
import { keyList, PayloadRefusal } from '../../lib/device-payload.ts';
import { DiskFullRefusal, isOutOfSpace } from '../../lib/disk-full.ts';

function refusalError(refusal: PayloadRefusal): AppError {
  const status = refusal.key === 'error.transport.payloadTooLarge' ? 413 : 400;
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, refusal.key, refusal.params, { status });
}

function bodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** Waits on `poll`, which gives up when the device hangs up first. */
function longPoll<T>(reply: FastifyReply, poll: (abandoned: AbortSignal) => Promise<T | null>): Promise<T | null> {
  const abandoned = new AbortController();
  reply.raw.once('close', () => abandoned.abort());
  return poll(abandoned.signal);
}

export function registerDeviceApiRoutes(fastify: FastifyInstance, { transport, sharedAttributes }: Pick<Services, 'transport' | 'sharedAttributes'>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // This plugin's scope only: devices send JSON under any content type (or none), as bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DEVICE_PAYLOAD_MAX_BYTES }, (_request, body, done) => done(null, body));
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, refusalError(new PayloadRefusal('error.transport.payloadTooLarge', { size: '64 KB' })));
    throw err;
  });

  // Devices call often and carry their token in the URL: per-request lines would flood the log
  // with secrets. Warnings and errors still show.
  const logLevel = 'warn';

  /** Runs `work` for the token's device, which counts as active until it ends. */
  const asDevice = async <T>(token: string, work: (device: ConnectedDevice) => Promise<T> | T): Promise<T> => {
    const device = await transport.deviceByToken(token);
    if (!device) throw new AppError(ErrorCode.AUTHENTICATION, 'error.transport.tokenUnknown', {}, { status: 401 });
    transport.state.httpStarted(device.id);
    try {
      return await work(device);
    } catch (err) {
      if (err instanceof PayloadRefusal) {
        transport.stats.refuse(err.key);
        throw refusalError(err);
      }
      // The disk filled before the free-space guard saw it (a floor of 0, or another writer): the
      // same answer as the guard's refusal, not a 500.
      if (isOutOfSpace(err)) throw new DiskFullRefusal();
      throw err;
    } finally {
      transport.state.httpEnded(device.id);
    }
  };

  /**
   * Stores a telemetry or attributes body. One holding no value (`{}`, `[]`) is answered 200 with
   * nothing stored, as ThingsBoard does: its SDK's TBHTTPDevice.connect() posts `{}` to test the
   * connection and never sends its queued telemetry when that fails. MQTT keeps refusing it (counted).
   */
  const store = async (device: ConnectedDevice, body: Buffer, save: (device: ConnectedDevice, body: Buffer) => Promise<void>): Promise<object> => {
    try {
      await save(device, body);
    } catch (err) {
      if (!(err instanceof PayloadRefusal && err.key === 'error.transport.empty')) throw err;
      transport.messages.announce(device.id, body.length);
    }
    transport.stats.accept();
    return {};
  };

  app.route({
    ...deviceApiRoutes.telemetry,
    logLevel,
    handler: async (request) =>
      asDevice(request.params.accessToken, (device) => store(device, bodyOf(request), (d, body) => transport.messages.telemetryMessage(d, body))),
  });
  app.route({
    ...deviceApiRoutes.attributes,
    logLevel,
    handler: async (request) =>
      asDevice(request.params.accessToken, (device) => store(device, bodyOf(request), (d, body) => transport.messages.attributesMessage(d, body))),
  });
  app.route({
    ...deviceApiRoutes.firmware,
    logLevel,
    handler: async (request, reply) =>
      asDevice(request.params.accessToken, (device) => {
        // As ThingsBoard's DeviceApiController: none assigned 404, another title or version 400.
        const pkg = transport.packages.source(device.id, 'fw');
        if (!pkg) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.ota.noFirmware', {}, { status: 404 });
        const { title, version, size = 0, chunk = 0 } = request.query;
        if (pkg.title !== title || pkg.version !== version) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.ota.wrongFirmware', { title: pkg.title, version: pkg.version });
        const answer = cutChunk(pkg, size, chunk, HTTP_CHUNK_MAX_BYTES);
        if ('failure' in answer) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.ota.chunkTooLarge', { size: '4 MB' }, { status: 413 });
        transport.messages.announce(device.id, 0);
        return reply
          .type('application/octet-stream')
          .header('content-disposition', `attachment;filename=${encodeURIComponent(pkg.fileName)}`)
          .header('x-filename', encodeURIComponent(pkg.fileName))
          .send(answer.payload);
      }),
  });
  app.route({
    ...deviceApiRoutes.getAttributes,
    logLevel,
    handler: async (request) =>
      // Over HTTP a blank side counts as not named (ThingsBoard's DeviceApiController).
      asDevice(request.params.accessToken, (device) =>
        sharedAttributes.request(device.id, keyList(request.query.clientKeys), keyList(request.query.sharedKeys)),
      ),
  });
  app.route({
    ...deviceApiRoutes.attributeUpdates,
    logLevel,
    handler: async (request, reply) =>
      asDevice(request.params.accessToken, async (device) => {
        const update = await longPoll(reply, (signal) =>
          transport.attributeUpdates.poll(device.id, request.query.timeout ?? RPC_POLL_TIMEOUT_DEFAULT_MS, signal),
        );
        return update ?? reply.code(408).send(undefined);
      }),
  });
  app.route({
    ...deviceApiRoutes.rpcPoll,
    logLevel,
    handler: async (request, reply) =>
      asDevice(request.params.accessToken, async (device) => {
        const rpc = await longPoll(reply, (signal) =>
          transport.mailbox.poll(device.id, request.query.timeout ?? RPC_POLL_TIMEOUT_DEFAULT_MS, signal),
        );
        // The device holds the request now: for HTTP devices that is delivery.
        if (rpc) transport.messages.rpcDelivered(device.id, rpc.id);
        // ThingsBoard answers an empty 408 when no request came in time.
        return rpc ?? reply.code(408).send(undefined);
      }),
  });
  app.route({
    ...deviceApiRoutes.rpcResponse,
    logLevel,
    handler: async (request) =>
      asDevice(request.params.accessToken, (device) => {
        transport.messages.rpcResponse(device.id, request.params.requestId, bodyOf(request));
        transport.stats.accept();
        return {};
      }),
  });
  app.route({
    ...deviceApiRoutes.rpcCall,
    logLevel,
    handler: async (request, reply) =>
      asDevice(request.params.accessToken, async (device) => {
        const answer = await new Promise<{ body: unknown } | null>((resolve) => {
          const giveUp = transport.clientRpc.call(device, bodyOf(request), { answer: (body) => resolve({ body }), expired: () => resolve(null) });
          // A caller gone before the answer: the call is forgotten, and an answer coming later is refused.
          reply.raw.once('close', () => {
            giveUp();
            resolve(null);
          });
        });
        transport.stats.accept();
        // ThingsBoard's HTTP transport ends a call unanswered in time with an empty 408, as the RPC poll.
        if (!answer) return reply.code(408).send(undefined);
        // Any JSON, a bare string or number included: serialised here, so Fastify sends it as is.
        return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(answer.body));
      }),
  });
}
