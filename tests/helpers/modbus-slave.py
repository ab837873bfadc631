#!/usr/bin/python3
"""Real Modbus slaves for the tests (pymodbus, Debian python3-pymodbus), driven over stdin/stdout.

Modes (argv):
  tcp <port> <units>             a Modbus TCP server on 127.0.0.1:<port> serving unit ids <units> (comma list)
  tcp-many <first-port> <count>  <count> Modbus TCP servers (unit 1 each) on consecutive ports, one
                                 process (the bench's 200 slaves); input register i holds i
  dtu-many <host:port> <count> <units>
                                 <count> REGISTER_SEND DTUs registering as ASCII "DTU000", "DTU001", …,
                                 each answering RTU requests for <units> (input register i holds i)
  dtu <host:port> <registration-hex> <auth> <units>
                                 an RTU-over-TCP DTU: connects OUT to the gateway's TCP access port,
                                 sends its registration (REGISTER_SEND: once first; DATA_CARRY: in
                                 front of every frame, a heartbeat first; REGISTRATION_PACKAGE: both), then answers the
                                 RTU requests it receives for <units> with pymodbus's RTU framer.

Every unit has 200 coils, discrete inputs, holding and input registers at address 0 (zero mode).
Holding registers 100-109 exist only at 100-101 and 108-109 (a gap the slave refuses with
"illegal data address", for the split-request fallback).

Commands, one JSON object per line on stdin, each answered by one JSON line on stdout:
  {"set": {"unit": 1, "table": "hr"|"ir"|"co"|"di", "address": 0, "values": [..]}}
  {"get": {"unit": 1, "table": "hr", "address": 0, "count": 2}}   -> {"values": [...]}
  {"stop": true}     stop serving (TCP: close the listener and connections; DTU: hang up)
  {"mute": <unit>}   stop answering that unit (a dead slave on a live bus)
The first line printed is {"ready": true}.
"""
import asyncio
import json
import logging
import sys

from pymodbus.datastore import (
    ModbusSequentialDataBlock,
    ModbusServerContext,
    ModbusSlaveContext,
    ModbusSparseDataBlock,
)
from pymodbus.factory import ServerDecoder
from pymodbus.framer.rtu_framer import ModbusRtuFramer
from pymodbus.server import StartAsyncTcpServer

logging.disable(logging.CRITICAL)


class GappedBlock(ModbusSequentialDataBlock):
    """Holding registers 0-199 except 102-107, which do not exist."""

    def validate(self, address, count=1):
        if not super().validate(address, count):
            return False
        return not any(102 <= a <= 107 for a in range(address, address + count))


def make_slave():
    return ModbusSlaveContext(
        di=ModbusSequentialDataBlock(0, [0] * 200),
        co=ModbusSequentialDataBlock(0, [0] * 200),
        hr=GappedBlock(0, [0] * 200),
        ir=ModbusSequentialDataBlock(0, [0] * 200),
        zero_mode=True,
    )


FC = {"co": 1, "di": 2, "hr": 3, "ir": 4}


def out(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


async def control(context, on_stop, muted):
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            return
        cmd = json.loads(line)
        if "set" in cmd:
            s = cmd["set"]
            values = s["values"]
            if s["table"] in ("co", "di"):
                values = [bool(v) for v in values]
            context[s["unit"]].setValues(FC[s["table"]], s["address"], values)
            out({"ok": True})
        elif "get" in cmd:
            g = cmd["get"]
            values = context[g["unit"]].getValues(FC[g["table"]], g["address"], g.get("count", 1))
            out({"values": [int(v) for v in values]})
        elif "mute" in cmd:
            muted.add(cmd["mute"])
            out({"ok": True})
        elif "stop" in cmd:
            await on_stop()
            out({"ok": True})


async def run_tcp(port, units):
    context = ModbusServerContext(slaves={u: make_slave() for u in units}, single=False)
    server = await StartAsyncTcpServer(context=context, address=("127.0.0.1", port), defer_start=True, allow_reuse_address=True)
    task = asyncio.ensure_future(server.serve_forever())
    await server.serving
    out({"ready": True})

    async def stop():
        await server.server_close()
        task.cancel()

    await control(context, stop, set())


async def run_dtu(target, registration, auth, units, context=None, announce=True):
    host, port = target.rsplit(":", 1)
    context = context or ModbusServerContext(slaves={u: make_slave() for u in units}, single=False)
    reg = bytes.fromhex(registration)
    muted = set()
    reader, writer = await asyncio.open_connection(host, int(port))
    carried = auth in ("DATA_CARRY", "REGISTRATION_PACKAGE")
    # REGISTER_SEND and REGISTRATION_PACKAGE send the registration first; a DATA_CARRY DTU has
    # nothing to carry yet, so its first frame is its heartbeat: the prefix with nothing behind it.
    writer.write(reg)
    await writer.drain()
    framer = ModbusRtuFramer(ServerDecoder())

    def answer(request):
        unit = request.unit_id
        if unit in muted or unit not in units:
            return
        response = request.execute(context[unit])
        response.unit_id = unit
        response.transaction_id = request.transaction_id
        packet = framer.buildPacket(response)
        writer.write(reg + packet if carried else packet)

    async def serve():
        while True:
            data = await reader.read(1024)
            if not data:
                return
            framer.processIncomingPacket(data, answer, unit=units, single=False)

    task = asyncio.ensure_future(serve())
    if not announce:
        return task
    out({"ready": True})

    async def stop():
        task.cancel()
        writer.close()

    await control(context, stop, muted)


async def run_dtu_many(target, count, units):
    slaves = {}
    for u in units:
        slave = make_slave()
        slave.setValues(4, 0, list(range(200)))
        slaves[u] = slave
    context = ModbusServerContext(slaves=slaves, single=False)
    tasks = []
    for i in range(count):
        registration = ("DTU%03d" % i).encode().hex()
        tasks.append(await run_dtu(target, registration, "REGISTER_SEND", units, context, announce=False))
    out({"ready": True})

    async def stop():
        for task in tasks:
            task.cancel()

    await control(context, stop, set())


async def run_tcp_many(first, count):
    servers = []
    for i in range(count):
        slave = make_slave()
        slave.setValues(4, 0, list(range(200)))
        context = ModbusServerContext(slaves={1: slave}, single=False)
        server = await StartAsyncTcpServer(context=context, address=("127.0.0.1", first + i), defer_start=True, allow_reuse_address=True)
        servers.append((server, asyncio.ensure_future(server.serve_forever())))
    for server, _ in servers:
        await server.serving
    out({"ready": True})

    async def stop():
        for server, task in servers:
            await server.server_close()
            task.cancel()

    await control(ModbusServerContext(slaves={}, single=False), stop, set())


def main():
    mode = sys.argv[1]
    if mode == "dtu-many":
        units = [int(u) for u in sys.argv[4].split(",")]
        asyncio.run(run_dtu_many(sys.argv[2], int(sys.argv[3]), units))
    elif mode == "tcp-many":
        asyncio.run(run_tcp_many(int(sys.argv[2]), int(sys.argv[3])))
    elif mode == "tcp":
        units = [int(u) for u in sys.argv[3].split(",")]
        asyncio.run(run_tcp(int(sys.argv[2]), units))
    else:
        units = [int(u) for u in sys.argv[5].split(",")]
        asyncio.run(run_dtu(sys.argv[2], sys.argv[3], sys.argv[4], units))


if __name__ == "__main__":
    main()
