#!/usr/bin/python3
"""ThingsBoard's Python SDK sequences (tb-mqtt-client 1.13) on Debian's python3-paho-mqtt, for the tests.

The SDK itself is not packaged by Debian; this script sends what it sends, in its order:
  1. ProvisionClient: user name "provision", subscribe /provision/response, publish
     /provision/request {deviceName, provisionDeviceKey, provisionDeviceSecret, gateway: true}
     (TBGatewayMqttClient.provision(..., gateway=True));
  2. TBGatewayMqttClient with the token it got: the gateway and device subscriptions, the client RPC
     getSessionLimits, gw_connect_device, gw_send_telemetry, gw_send_attributes;
  3. the short (v2) topics of the same client: v2/t, v2/a, v2/a/req/{id}, v2/r/req/{id}, and a
     firmware chunk request v2/fw/request/{id}/chunk/{n}.

Usage: tb-sdk-client.py <host> <port> <mqtt version 4|5> <provision key> <provision secret> <device name> <sub-device name>
Prints one JSON object: what each step answered. Exits 0 when every step got an answer.
"""
import json
import queue
import sys

import paho.mqtt.client as mqtt

TIMEOUT_S = 30


def client_for(version, username):
    protocol = mqtt.MQTTv5 if version == 5 else mqtt.MQTTv311
    client = mqtt.Client(client_id="", protocol=protocol) if version == 5 else mqtt.Client(client_id="", clean_session=True, protocol=protocol)
    client.username_pw_set(username)
    inbox = queue.Queue()
    connected = queue.Queue()
    closed = queue.Queue()

    def on_connect(_client, _userdata, _flags, rc, _properties=None):
        connected.put(int(rc) if not hasattr(rc, "value") else rc.value)

    def on_message(_client, _userdata, message):
        inbox.put((message.topic, message.payload.decode("utf-8")))

    def on_disconnect(_client, _userdata, rc, _properties=None):
        closed.put(int(rc) if not hasattr(rc, "value") else rc.value)

    client.on_connect = on_connect
    client.on_message = on_message
    client.on_disconnect = on_disconnect
    return client, inbox, connected, closed


def connect(client, connected, host, port):
    client.connect(host, port, keepalive=60)
    client.loop_start()
    return connected.get(timeout=TIMEOUT_S)


def next_on(inbox, topic):
    """The next message on `topic` (others, such as attribute pushes, are skipped)."""
    while True:
        got_topic, payload = inbox.get(timeout=TIMEOUT_S)
        if got_topic == topic:
            return payload


def provision(host, port, version, key, secret, name):
    client, inbox, connected, _closed = client_for(version, "provision")
    connect(client, connected, host, port)
    client.subscribe("/provision/response", qos=1)
    request = {"deviceName": name, "provisionDeviceKey": key, "provisionDeviceSecret": secret, "gateway": True}
    client.publish("/provision/request", json.dumps(request), qos=1)
    answer = json.loads(next_on(inbox, "/provision/response"))
    client.loop_stop()
    client.disconnect()
    return answer


def gateway(host, port, version, token, sub_device):
    client, inbox, connected, _closed = client_for(version, token)
    result = {"connack": connect(client, connected, host, port)}
    for topic in ("v1/devices/me/attributes", "v1/devices/me/attributes/response/+", "v1/devices/me/rpc/request/+",
                  "v1/devices/me/rpc/response/+", "v1/gateway/attributes", "v1/gateway/attributes/response", "v1/gateway/rpc"):
        client.subscribe(topic, qos=1)
    client.publish("v1/devices/me/rpc/request/1", json.dumps({"method": "getSessionLimits", "params": {}}), qos=1)
    result["sessionLimits"] = json.loads(next_on(inbox, "v1/devices/me/rpc/response/1"))
    infos = [
        client.publish("v1/gateway/connect", json.dumps({"device": sub_device, "type": "default"}), qos=1),
        client.publish("v1/gateway/telemetry", json.dumps({sub_device: [{"ts": 1700000000000, "values": {"temperature": 21.5}}]}), qos=1),
        client.publish("v1/gateway/attributes", json.dumps({sub_device: {"model": "TH-1"}}), qos=1),
    ]
    for info in infos:
        info.wait_for_publish(timeout=TIMEOUT_S)
    result["gatewayPublishes"] = [info.is_published() for info in infos]
    client.loop_stop()
    client.disconnect()
    return result


def short_topics(host, port, version, token):
    client, inbox, connected, closed = client_for(version, token)
    connect(client, connected, host, port)
    for topic in ("v2/a/res/+", "v2/r/res/+", "v2/fw/response/+/chunk/+", "v2/fw/error"):
        client.subscribe(topic, qos=1)
    result = {}
    infos = [
        client.publish("v2/t", json.dumps({"ts": 1700000001000, "values": {"shortTemperature": 7}}), qos=1),
        client.publish("v2/a", json.dumps({"firmwareVersion": "1.0.2"}), qos=1),
    ]
    for info in infos:
        info.wait_for_publish(timeout=TIMEOUT_S)
    result["published"] = [info.is_published() for info in infos]
    client.publish("v2/a/req/3", json.dumps({"clientKeys": "firmwareVersion"}), qos=1)
    result["attributes"] = json.loads(next_on(inbox, "v2/a/res/3"))
    client.publish("v2/r/req/4", json.dumps({"method": "getCurrentTime", "params": {}}), qos=1)
    result["currentTime"] = json.loads(next_on(inbox, "v2/r/res/4"))
    # The SDK's firmware update asks for chunk 0 with the chunk size as the payload.
    client.publish("v2/fw/request/5/chunk/0", "16384", qos=1)
    result["firmware"] = next_on(inbox, "v2/fw/error")
    result["closed"] = closed.get(timeout=TIMEOUT_S) is not None
    client.loop_stop()
    return result


def main():
    host, port, version, key, secret, name, sub_device = sys.argv[1:8]
    port, version = int(port), int(version)
    out = {"provision": provision(host, port, version, key, secret, name)}
    token = out["provision"].get("credentialsValue")
    out["gateway"] = gateway(host, port, version, token, sub_device)
    out["short"] = short_topics(host, port, version, token)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
