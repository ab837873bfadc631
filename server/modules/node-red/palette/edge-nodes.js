'use strict';
/*
 * Palette nodes that know the edge gateway (docs/NODE-RED.md, "Palette nodes"). Plain Node-RED node
 * files: no build step and no dependency, Node's own fetch and WebSocket, so an idle instance pays
 * next to nothing for them. They reach the gateway over loopback with the instance's own
 * credential, which the runtime put in RED.settings.edgeGateway and took out of the environment
 * before any flow ran (server/cli/node-red-runtime.ts).
 */
module.exports = function (RED) {
  const gateway = RED.settings.edgeGateway;
  const HEADER = 'x-edge-node-red-instance';
  const RECONNECT_MS = 5000;

  /** POSTs to a palette route; rejects with the gateway's own message when it refuses. */
  async function post(path, body) {
    if (!gateway) throw new Error('this instance was not started by the edge gateway');
    const res = await fetch(gateway.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HEADER]: gateway.instanceId + ':' + gateway.secret },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    if (!res.ok) throw new Error((answer && answer.message) || 'HTTP ' + res.status);
    return answer;
  }

  /*
   * One websocket for the whole instance, opened when the first "in" node subscribes and closed
   * with the last: an instance without such nodes opens none. Every subscription is a guest
   * command carrying the credential (the gateway's /api/ws has no other way for a non-user).
   */
  const live = { ws: null, timer: null, nextCmdId: 1, subs: new Map() };

  function commandOf(cmdId, sub) {
    return Object.assign({ cmdId, instanceId: gateway.instanceId, secret: gateway.secret }, sub.command);
  }

  function connect() {
    live.timer = null;
    if (!live.subs.size || live.ws) return;
    const ws = new WebSocket(gateway.url.replace(/^http/, 'ws') + '/api/ws');
    live.ws = ws;
    ws.addEventListener('open', () => {
      const cmds = [...live.subs].map(([cmdId, sub]) => commandOf(cmdId, sub));
      if (cmds.length) ws.send(JSON.stringify({ cmds }));
    });
    ws.addEventListener('message', (event) => {
      let update;
      try {
        update = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const sub = live.subs.get(update.cmdId);
      if (sub) sub.onUpdate(update);
    });
    ws.addEventListener('close', () => {
      if (live.ws !== ws) return;
      live.ws = null;
      for (const sub of live.subs.values()) sub.onDisconnect();
      if (live.subs.size && !live.timer) live.timer = setTimeout(connect, RECONNECT_MS);
    });
    ws.addEventListener('error', () => {
      // 'close' follows and schedules the reconnection.
    });
  }

  /** Follows a live command; answers the function that stops following it. */
  function subscribe(command, onUpdate, onDisconnect) {
    const cmdId = live.nextCmdId++;
    const sub = { command, onUpdate, onDisconnect };
    live.subs.set(cmdId, sub);
    if (live.ws && live.ws.readyState === WebSocket.OPEN) live.ws.send(JSON.stringify({ cmds: [commandOf(cmdId, sub)] }));
    else if (!live.ws && !live.timer) connect();
    return () => {
      live.subs.delete(cmdId);
      if (!live.ws) return;
      if (!live.subs.size) {
        const ws = live.ws;
        live.ws = null;
        ws.close();
      } else if (live.ws.readyState === WebSocket.OPEN) {
        live.ws.send(JSON.stringify({ cmds: [{ type: command.type + '_UNSUBSCRIBE', cmdId }] }));
      }
    };
  }

  function failed(node, message) {
    node.status({ fill: 'red', shape: 'ring', text: String(message).slice(0, 60) });
  }

  /** Edge telemetry in: a device's values as the gateway stores them, one message per stored message. */
  function EdgeTelemetryIn(config) {
    RED.nodes.createNode(this, config);
    const node = this;
    if (!gateway || !config.deviceId) {
      failed(node, gateway ? 'no device' : 'not under the edge gateway');
      return;
    }
    const stop = subscribe(
      { type: 'NODE_RED_TELEMETRY', deviceId: config.deviceId },
      (update) => {
        if (update.errorCode) {
          failed(node, update.errorMsg);
          node.error(update.errorMsg);
          return;
        }
        node.status({ fill: 'green', shape: 'dot', text: 'connected' });
        const keys = Object.keys(update.data || {});
        if (!keys.length) return;
        const payload = {};
        let ts = 0;
        for (const key of keys) {
          payload[key] = update.data[key].value;
          ts = Math.max(ts, update.data[key].ts);
        }
        node.send({ topic: update.deviceId, deviceId: update.deviceId, ts, payload });
      },
      () => failed(node, 'disconnected'),
    );
    node.on('close', stop);
  }
  RED.nodes.registerType('edge telemetry in', EdgeTelemetryIn);

  /** Edge telemetry out: msg.payload's values as one telemetry message of the device. */
  function EdgeTelemetryOut(config) {
    RED.nodes.createNode(this, config);
    const node = this;
    node.on('input', (msg, send, done) => {
      const deviceId = config.deviceId || msg.deviceId;
      const values = msg.payload;
      if (!deviceId || !values || typeof values !== 'object' || Array.isArray(values)) {
        failed(node, 'needs a device and an object payload');
        done(new Error('edge telemetry out needs a device (node or msg.deviceId) and msg.payload as { key: value }'));
        return;
      }
      const body = { deviceId, values };
      if (typeof msg.ts === 'number') body.ts = msg.ts;
      post('/api/yt/node_red/palette/telemetry', body).then(
        () => {
          node.status({ fill: 'green', shape: 'dot', text: 'stored' });
          done();
        },
        (err) => {
          failed(node, err.message);
          done(err);
        },
      );
    });
  }
  RED.nodes.registerType('edge telemetry out', EdgeTelemetryOut);
};
