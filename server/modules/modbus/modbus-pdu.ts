/**
 * Modbus PDUs (function code + data) the master sends, and what a response PDU must look like to
 * answer one: the same function (or it | 0x80 with an exception code), the expected byte count.
 */
export const FC_READ_COILS = 1;
export const FC_READ_DISCRETE_INPUTS = 2;
export const FC_READ_HOLDING_REGISTERS = 3;
export const FC_READ_INPUT_REGISTERS = 4;
export const FC_WRITE_SINGLE_COIL = 5;
export const FC_WRITE_SINGLE_REGISTER = 6;
export const FC_WRITE_MULTIPLE_COILS = 15;
export const FC_WRITE_MULTIPLE_REGISTERS = 16;
export const EXCEPTION_ILLEGAL_DATA_ADDRESS = 2;

export function isBitFunction(fn: number): boolean {
  return fn === FC_READ_COILS || fn === FC_READ_DISCRETE_INPUTS;
}

export function readRequest(fn: number, start: number, count: number): Buffer {
  const pdu = Buffer.alloc(5);
  pdu[0] = fn;
  pdu.writeUInt16BE(start, 1);
  pdu.writeUInt16BE(count, 3);
  return pdu;
}

export function writeCoilRequest(address: number, on: boolean): Buffer {
  const pdu = Buffer.alloc(5);
  pdu[0] = FC_WRITE_SINGLE_COIL;
  pdu.writeUInt16BE(address, 1);
  pdu.writeUInt16BE(on ? 0xff00 : 0x0000, 3);
  return pdu;
}

/** 06 for one register, 16 for more. */
export function writeRegistersRequest(address: number, registers: readonly number[]): Buffer {
  if (registers.length === 1) {
    const pdu = Buffer.alloc(5);
    pdu[0] = FC_WRITE_SINGLE_REGISTER;
    pdu.writeUInt16BE(address, 1);
    pdu.writeUInt16BE(registers[0]!, 3);
    return pdu;
  }
  const pdu = Buffer.alloc(6 + registers.length * 2);
  pdu[0] = FC_WRITE_MULTIPLE_REGISTERS;
  pdu.writeUInt16BE(address, 1);
  pdu.writeUInt16BE(registers.length, 3);
  pdu[5] = registers.length * 2;
  registers.forEach((r, i) => pdu.writeUInt16BE(r, 6 + i * 2));
  return pdu;
}

/**
 * Length of the response PDU to `request` (function byte included), as a slave that obeys sends
 * it; an exception response is 2 bytes.
 */
export function responsePduLength(request: Uint8Array): number {
  const fn = request[0]!;
  const count = (request[3]! << 8) | request[4]!;
  if (fn === FC_READ_COILS || fn === FC_READ_DISCRETE_INPUTS) return 2 + Math.ceil(count / 8);
  if (fn === FC_READ_HOLDING_REGISTERS || fn === FC_READ_INPUT_REGISTERS) return 2 + count * 2;
  return 5;
}

/** What a response PDU says, checked against its request. */
export type PduAnswer =
  | { kind: 'registers'; registers: number[] }
  | { kind: 'bits'; bits: boolean[] }
  | { kind: 'written' }
  | { kind: 'exception'; code: number }
  | { kind: 'bad' };

export function answerOf(request: Uint8Array, response: Uint8Array): PduAnswer {
  const fn = request[0]!;
  if (response[0] === (fn | 0x80) && response.length === 2) return { kind: 'exception', code: response[1]! };
  if (response[0] !== fn || response.length !== responsePduLength(request)) return { kind: 'bad' };
  const count = (request[3]! << 8) | request[4]!;
  if (isBitFunction(fn)) {
    if (response[1] !== Math.ceil(count / 8)) return { kind: 'bad' };
    const bits: boolean[] = [];
    for (let i = 0; i < count; i++) bits.push(((response[2 + (i >> 3)]! >> (i & 7)) & 1) === 1);
    return { kind: 'bits', bits };
  }
  if (fn === FC_READ_HOLDING_REGISTERS || fn === FC_READ_INPUT_REGISTERS) {
    if (response[1] !== count * 2) return { kind: 'bad' };
    const registers: number[] = [];
    for (let i = 0; i < count; i++) registers.push((response[2 + i * 2]! << 8) | response[3 + i * 2]!);
    return { kind: 'registers', registers };
  }
  // Writes echo the address (and the value or quantity).
  return response[1] === request[1] && response[2] === request[2] ? { kind: 'written' } : { kind: 'bad' };
}
