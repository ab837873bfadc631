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

  /**
   * An "in" node: follows one live command while it exists; `toMessage` turns an update into the
   * message to send (or null for none). Errors of the gateway show on the node.
   */
  function inNode(type, commandType, toMessage) {
    function EdgeIn(config) {
      RED.nodes.createNode(this, config);
      const node = this;
      // Edge telemetry in may follow a product's devices instead of one device.
      const followed = config.deviceId ? { deviceId: config.deviceId } : config.productId ? { productId: config.productId } : null;
      if (!gateway || !followed) {
        failed(node, gateway ? 'no device' : 'not under the edge gateway');
        return;
      }
      const stop = subscribe(
        Object.assign({ type: commandType }, followed),
        (update) => {
          if (update.errorCode) {
            failed(node, update.errorMsg);
            node.error(update.errorMsg);
            return;
          }
          node.status({ fill: 'green', shape: 'dot', text: 'connected' });
          const msg = toMessage(update);
          if (msg) node.send(msg);
        },
        () => failed(node, 'disconnected'),
      );
      node.on('close', stop);
    }
    RED.nodes.registerType(type, EdgeIn);
  }

  /**
   * An "out" node: each message becomes one POST of `bodyOf(msg, deviceId, config)` (an Error when the
   * message will not do). A node with an output (`answers`) sends the gateway's answer on as payload.
   */
  function outNode(type, path, bodyOf, answers) {
    function EdgeOut(config) {
      RED.nodes.createNode(this, config);
      const node = this;
      node.on('input', (msg, send, done) => {
        const deviceId = config.deviceId || msg.deviceId;
        const body = deviceId ? bodyOf(msg, deviceId, config) : new Error(type + ' needs a device (on the node or msg.deviceId)');
        if (body instanceof Error) {
          failed(node, body.message);
          done(body);
          return;
        }
        post(path, body).then(
          (answer) => {
            node.status({ fill: 'green', shape: 'dot', text: 'sent' });
            if (answers) send(Object.assign({}, msg, { payload: answer }));
            done();
          },
          (err) => {
            failed(node, err.message);
            done(err);
          },
        );
      });
    }
    RED.nodes.registerType(type, EdgeOut);
  }

  /** Edge telemetry in: a device's (or each device of a product's) values as the gateway stores them, one message per stored message. */
  inNode('edge telemetry in', 'NODE_RED_TELEMETRY', (update) => {
    const keys = Object.keys(update.data || {});
    if (!keys.length) return null;
    const payload = {};
    let ts = 0;
    for (const key of keys) {
      payload[key] = update.data[key].value;
      ts = Math.max(ts, update.data[key].ts);
    }
    return { topic: update.deviceId, deviceId: update.deviceId, ts, payload };
  });

  /** Edge TCP in: the raw frames a custom TCP device sends, as Buffers. */
  inNode('edge TCP in', 'NODE_RED_TCP', (update) =>
    update.frame === null ? null : { topic: update.deviceId, deviceId: update.deviceId, payload: Buffer.from(update.frame, 'hex') },
  );

  /** Edge telemetry out: msg.payload's values as one telemetry message of the device. */
  outNode('edge telemetry out', '/api/yt/node_red/palette/telemetry', (msg, deviceId) => {
    const values = msg.payload;
    if (!values || typeof values !== 'object' || Array.isArray(values)) return new Error('edge telemetry out needs msg.payload as { key: value }');
    return typeof msg.ts === 'number' ? { deviceId, values, ts: msg.ts } : { deviceId, values };
  });

  /** Edge command: msg.payload as the content of a command to the device (CUSTOM: { method, params }); the command record comes out. */
  outNode(
    'edge command',
    '/api/yt/node_red/palette/command',
    (msg, deviceId, config) => {
      if (msg.payload === undefined || msg.payload === null) return new Error('edge command needs msg.payload as the command content');
      const content = typeof msg.payload === 'object' || typeof msg.payload === 'string' ? msg.payload : String(msg.payload);
      return { deviceId, commandType: config.commandType || 'CUSTOM', callType: config.callType || 'ASYNC', way: config.way || 'oneway', content };
    },
    true,
  );

  /** Edge alarm: raises (or clears, with action CLEAR) the device's alarm of a type; msg.payload's text is its message, any other payload its value. */
  outNode(
    'edge alarm',
    '/api/yt/node_red/palette/alarm',
    (msg, deviceId, config) => {
      const type = config.alarmType || msg.alarmType || msg.topic;
      const action = String(config.action || msg.action || 'RAISE').toUpperCase();
      if (!type) return new Error('edge alarm needs an alarm type (on the node, msg.alarmType or msg.topic)');
      const body = { deviceId, action, type };
      if (action === 'RAISE') {
        const severity = config.severity || msg.severity;
        if (severity) body.severity = String(severity).toUpperCase();
        if (typeof msg.payload === 'string') body.message = msg.payload;
        else if (msg.payload !== undefined) body.value = msg.payload;
      }
      return body;
    },
    true,
  );

  /** Edge TCP out: msg.payload (a Buffer, or a string sent as its UTF-8 bytes) to the device's live connection. */
  outNode('edge TCP out', '/api/yt/node_red/palette/tcp', (msg, deviceId) => {
    const bytes = Buffer.isBuffer(msg.payload) ? msg.payload : typeof msg.payload === 'string' ? Buffer.from(msg.payload) : null;
    if (!bytes || !bytes.length) return new Error('edge TCP out needs msg.payload as a Buffer or a string');
    return { deviceId, frame: bytes.toString('hex') };
  });
};
