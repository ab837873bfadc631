#!/usr/bin/env python3
"""A DTU with one Modbus RTU slave behind it, as field sites have them: connects to the gateway's
TCP access port, sends its registration string once (REGISTER_SEND), then answers the RTU requests
that arrive on that connection with pymodbus' own framer, decoder and datastore (holding
registers, input registers, coils, discrete inputs, all zero-based, 0..999).

Control on stdin, one command a line, answered on stdout:
  set <hr|ir|co|di> <address> <value>   -> "ok"
  get <hr|ir|co|di> <address>           -> "value <n>"
It prints "connected" once the registration is sent, and "closed" when the gateway hangs up.

Usage: modbus-dtu.py <host> <port> <registration ASCII> <unit id>
"""
import socket
import sys
import threading

from pymodbus.datastore import ModbusSequentialDataBlock, ModbusSlaveContext
from pymodbus.factory import ServerDecoder
from pymodbus.framer.rtu_framer import ModbusRtuFramer

KINDS = {"co": 1, "di": 2, "hr": 3, "ir": 4}


def main() -> None:
    host, port, registration, unit = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    slave = ModbusSlaveContext(
        di=ModbusSequentialDataBlock(0, [0] * 1000),
        co=ModbusSequentialDataBlock(0, [0] * 1000),
        hr=ModbusSequentialDataBlock(0, [0] * 1000),
        ir=ModbusSequentialDataBlock(0, [0] * 1000),
        zero_mode=True,
    )
    lock = threading.Lock()
    sock = socket.create_connection((host, port))
    sock.sendall(registration.encode("ascii"))
    print("connected", flush=True)

    def control() -> None:
        for line in sys.stdin:
            parts = line.split()
            if not parts:
                continue
            with lock:
                if parts[0] == "set":
                    slave.setValues(KINDS[parts[1]], int(parts[2]), [int(parts[3])])
                    print("ok", flush=True)
                elif parts[0] == "get":
                    print(f"value {int(slave.getValues(KINDS[parts[1]], int(parts[2]), 1)[0])}", flush=True)

    threading.Thread(target=control, daemon=True).start()

    framer = ModbusRtuFramer(ServerDecoder())

    def answer(request) -> None:
        with lock:
            response = request.execute(slave)
        response.unit_id = request.unit_id
        response.transaction_id = request.transaction_id
        sock.sendall(framer.buildPacket(response))

    while True:
        data = sock.recv(4096)
        if not data:
            break
        framer.processIncomingPacket(data, answer, unit=[unit], single=False)
    print("closed", flush=True)


if __name__ == "__main__":
    main()
